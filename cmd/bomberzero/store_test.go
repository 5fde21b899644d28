package main

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/yaml"

	"bomberzero/deploy"
)

func TestStoreFlagsRefuseWhatCannotWorkNamingTheFault(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "--role", "trainer", "--run", t.TempDir()}, "needs --run URL"},
		{[]string{"train", "--role", "evaluator"}, "needs --run URL"},
		{[]string{"train", "--role", "judge", "--run", "mem://x"}, "want all, trainer or evaluator"},
		{[]string{"train", "--run", "ftp://host/run"}, "not a store"},
		{[]string{"train", "--run", "s3://key:secret@bucket/run"}, "credentials in the URL are refused"},
		{[]string{"train", "--run", "mem://x", "--lease-ttl", "10ms"}, "--lease-ttl"},
		{[]string{"selfplay", "--follow"}, "--run and --follow go together"},
		{[]string{"selfplay", "--run", "mem://x"}, "--run and --follow go together"},
		{[]string{"selfplay", "--run", t.TempDir(), "--follow"}, "--run and --follow go together"},
		{[]string{"selfplay", "--run", "mem://x", "--follow", "--sims", "8"}, "--sims"},
		{[]string{"selfplay", "--run", "mem://x", "--follow", "--batch-games", "-1"}, "--batch-games"},
	} {
		code, _, errs := runCmd(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
		if strings.Contains(errs, "secret@") {
			t.Errorf("%q: the error shows the credentials: %q", tc.args, errs)
		}
	}
}

// TestDeployManifestsUseFlagsTheCommandsDefine parses every container's
// arguments of deploy/ with the commands' own flag sets: a misspelt or
// removed flag in a manifest fails here, not in a cluster. A sentinel flag
// after them must be the only one refused.
func TestDeployManifestsUseFlagsTheCommandsDefine(t *testing.T) {
	files, err := fs.Glob(deploy.Manifests, "*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, name := range files {
		data, _ := fs.ReadFile(deploy.Manifests, name)
		for _, doc := range bytes.Split(data, []byte("\n---")) {
			if !bytes.Contains(doc, []byte("kind: Deployment")) {
				continue
			}
			var d appsv1.Deployment
			if err := yaml.Unmarshal(doc, &d); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, c := range d.Spec.Template.Spec.Containers {
				args := make([]string, 0, len(c.Args)+1)
				for _, a := range c.Args {
					a = strings.ReplaceAll(a, "$(RUN_URL)", "mem://deploy-test")
					a = strings.ReplaceAll(a, "$(CPUS)", "2")
					args = append(args, a)
				}
				args = append(args, "--zz-sentinel")
				code, _, errs := runCmd(t, args...)
				if code != 2 || !strings.Contains(errs, "zz-sentinel") {
					t.Errorf("%s, container %s: %q: exit %d, stderr %q; want only the sentinel refused", name, c.Name, c.Args, code, errs)
				}
				seen++
			}
		}
	}
	if seen != 3 {
		t.Errorf("checked %d containers, want the trainer's, the workers' and the evaluator's", seen)
	}
}
