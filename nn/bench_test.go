package nn

import (
	"testing"

	"bomberzero/eval"
)

// benchConfig is the training-size network on a 10x10 board.
func benchConfig() Config { return DefaultConfig(30, 10, 10, 80) }

func BenchmarkTrainStep(b *testing.B) {
	for _, bs := range []int{64, 256} {
		b.Run(itoa(bs), func(b *testing.B) {
			cfg := benchConfig()
			net, err := New(cfg, 1)
			if err != nil {
				b.Fatal(err)
			}
			tc := DefaultTrainConfig()
			tc.Optimizer = "adam"
			tr, err := NewTrainer(net, tc)
			if err != nil {
				b.Fatal(err)
			}
			batch := benchTrainBatch(cfg, bs)
			if _, err := tr.TrainStep(batch); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := tr.TrainStep(batch); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(bs*b.N)/b.Elapsed().Seconds(), "samples/s")
		})
	}
}

func BenchmarkEvaluate(b *testing.B) {
	for _, bs := range []int{1, 8, 32, 128} {
		b.Run(itoa(bs), func(b *testing.B) {
			cfg := benchConfig()
			net, err := New(cfg, 1)
			if err != nil {
				b.Fatal(err)
			}
			ev, err := NewEvaluator(net.Fold(), bs)
			if err != nil {
				b.Fatal(err)
			}
			tb := benchTrainBatch(cfg, bs)
			eb := eval.NewBatch(cfg.Shape(), bs)
			copy(eb.Planes, tb.Planes)
			copy(eb.Legal, tb.Legal)
			if err := ev.Evaluate(eb); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := ev.Evaluate(eb); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(bs*b.N)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}

func itoa(n int) string {
	s := ""
	for n >= 10 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return string(rune('0'+n)) + s
}
