package teacher

import (
	"context"
	"testing"

	"bomberzero/env"
)

// benchmarkTeacher plays b.N fbgc games of the default configuration at
// depth with policy, one worker per core, and reports the rates and the
// games' shape (docs/training.md records them):
//
//	go test ./selfplay/teacher -run X -bench Teacher -benchtime 200x
func benchmarkTeacher(b *testing.B, depth int, policy string) {
	cfg := DefaultConfig("fbgc")
	cfg.Depth, cfg.Policy = depth, policy
	benchmarkRun(b, cfg)
}

// benchmarkEngineTeacher is benchmarkTeacher for the engine teacher at
// nodes a move (the defaults' 4 lines and 20 cp margin):
//
//	go test ./selfplay/teacher -run X -bench EngineTeacher -benchtime 20x
func benchmarkEngineTeacher(b *testing.B, nodes int64, policy string) {
	cfg := DefaultConfig("fbgc")
	cfg.Player, cfg.Nodes, cfg.Policy = PlayerEngine, nodes, policy
	benchmarkRun(b, cfg)
}

// benchmarkRun plays b.N games of cfg and reports them.
func benchmarkRun(b *testing.B, cfg Config) {
	cfg.Games, cfg.Out = b.N, b.TempDir()
	b.ResetTimer()
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	s := sum.Elapsed.Seconds()
	b.ReportMetric(float64(sum.Games)/s, "games/s")
	b.ReportMetric(float64(sum.Positions)/s, "positions/s")
	b.ReportMetric(sum.Decisive(), "decisive")
	b.ReportMetric(float64(sum.Ends[env.Checkmate])/float64(sum.Games), "mates")
	b.ReportMetric(float64(sum.Ends[env.LengthCap])/float64(sum.Games), "capped")
	b.ReportMetric(sum.MeanPlies(), "plies")
}

func BenchmarkTeacherDepth1Played(b *testing.B)      { benchmarkTeacher(b, 1, PolicyPlayed) }
func BenchmarkTeacherDepth1Softmax(b *testing.B)     { benchmarkTeacher(b, 1, PolicySoftmax) }
func BenchmarkTeacherDepth2Played(b *testing.B)      { benchmarkTeacher(b, 2, PolicyPlayed) }
func BenchmarkTeacherDepth2Softmax(b *testing.B)     { benchmarkTeacher(b, 2, PolicySoftmax) }
func BenchmarkTeacherDepth3Played(b *testing.B)      { benchmarkTeacher(b, 3, PolicyPlayed) }
func BenchmarkTeacherDepth3Softmax(b *testing.B)     { benchmarkTeacher(b, 3, PolicySoftmax) }
func BenchmarkEngineTeacher2000Played(b *testing.B)  { benchmarkEngineTeacher(b, 2000, PolicyPlayed) }
func BenchmarkEngineTeacher2000Softmax(b *testing.B) { benchmarkEngineTeacher(b, 2000, PolicySoftmax) }
