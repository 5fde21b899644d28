package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestBenchNNPrintsOneJSONObjectWithTheIssueFields(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"bench", "nn", "--json", "--seconds", "0.5", "--blocks", "1", "--filters", "8",
		"--channels", "3", "--board", "4", "--policy-planes", "2", "--train-batch", "4", "--square-gemm", "64"}
	if code := run(args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var res map[string]any
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out.String())
	}
	for _, k := range []string{"sgemm_gflops", "infer_positions_per_s", "infer_gflops", "infer_ratio",
		"train_samples_per_s", "train_ratio", "train_alloc_mb_per_step", "max_rss_mb"} {
		if _, ok := res[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	pps, _ := res["infer_positions_per_s"].(map[string]any)
	for _, b := range []string{"1", "8", "32", "128"} {
		if v, _ := pps[b].(float64); v <= 0 {
			t.Errorf("infer_positions_per_s[%s] = %v, want > 0", b, pps[b])
		}
	}
}

func TestBenchNNRejectsBadFlagsWithUsageStatus(t *testing.T) {
	for _, args := range [][]string{{"bench", "nn", "--bogus"}, {"bench", "nn", "extra"}, {"bench", "nn", "--filters", "0"}} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
