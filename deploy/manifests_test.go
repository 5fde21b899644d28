package deploy

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// kustomizationFile is the file kubectl apply -k reads; the other YAML
// files are manifests.
const kustomizationFile = "kustomization.yaml"

// isExample reports whether a manifest is a template an operator copies
// (secret.example.yaml), which kustomization.yaml must not apply.
func isExample(name string) bool { return strings.HasSuffix(name, ".example.yaml") }

// newObject returns an empty object of the Kubernetes type of apiVersion
// and kind, or nil for a kind these tests do not know. Add a kind here
// (with its checks) before using it in a manifest.
func newObject(apiVersion, kind string) any {
	switch apiVersion + " " + kind {
	case "v1 Namespace":
		return &corev1.Namespace{}
	case "v1 ServiceAccount":
		return &corev1.ServiceAccount{}
	case "v1 ConfigMap":
		return &corev1.ConfigMap{}
	case "v1 Secret":
		return &corev1.Secret{}
	case "apps/v1 Deployment":
		return &appsv1.Deployment{}
	}
	return nil
}

// object is one decoded manifest document.
type object struct {
	file  string
	where string // file and document number, for messages
	kind  string
	name  string
	obj   any // a pointer to a k8s.io/api type
}

// separator is a YAML document separator line.
var separator = regexp.MustCompile(`^---\s*(#.*)?$`)

// splitDocuments cuts a multi-document YAML file at its "---" lines and
// drops the documents that hold only comments and blank lines.
func splitDocuments(data []byte) [][]byte {
	var docs [][]byte
	var cur bytes.Buffer
	content := false
	flush := func() {
		if content {
			docs = append(docs, bytes.Clone(cur.Bytes()))
		}
		cur.Reset()
		content = false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if separator.MatchString(line) {
			flush()
			continue
		}
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
			content = true
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
	}
	flush()
	return docs
}

// strictUnmarshal decodes a YAML document into v as the API server's
// strict field validation does: YAML to JSON refusing duplicate keys
// (sigs.k8s.io/yaml), then JSON into v matching field names
// case-sensitively and refusing unknown and duplicate fields
// (sigs.k8s.io/json). sigs.k8s.io/yaml's own UnmarshalStrict is not
// enough: it decodes with encoding/json, whose case-insensitive match
// takes readOnlyRootFileSystem for readOnlyRootFilesystem, a field the
// API server would drop (or refuse).
func strictUnmarshal(doc []byte, v any) error {
	js, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		return err
	}
	strict, err := kjson.UnmarshalStrict(js, v)
	if err != nil {
		return err
	}
	return errors.Join(strict...)
}

// decodeDocument decodes one YAML document strictly into the Kubernetes
// type its apiVersion and kind name: an unknown or misspelt field, a
// duplicate key, a value of the wrong type or a kind these tests do not
// know is an error.
func decodeDocument(doc []byte) (object, error) {
	var tm struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if err := yaml.Unmarshal(doc, &tm); err != nil {
		return object{}, err
	}
	if tm.APIVersion == "" || tm.Kind == "" {
		return object{}, fmt.Errorf("no apiVersion or kind")
	}
	obj := newObject(tm.APIVersion, tm.Kind)
	if obj == nil {
		return object{}, fmt.Errorf("kind %s %s is unknown to these tests (newObject)", tm.APIVersion, tm.Kind)
	}
	if err := strictUnmarshal(doc, obj); err != nil {
		return object{}, fmt.Errorf("%s %s: %w", tm.Kind, tm.Metadata.Name, err)
	}
	if tm.Metadata.Name == "" {
		return object{}, fmt.Errorf("%s without metadata.name", tm.Kind)
	}
	return object{kind: tm.Kind, name: tm.Metadata.Name, obj: obj}, nil
}

// decodeAll decodes every document of data, named file in messages.
func decodeAll(t *testing.T, file string, data []byte) []object {
	t.Helper()
	var objs []object
	for i, doc := range splitDocuments(data) {
		o, err := decodeDocument(doc)
		if err != nil {
			t.Errorf("%s, document %d: %v", file, i+1, err)
			continue
		}
		o.file, o.where = file, fmt.Sprintf("%s#%d", file, i+1)
		objs = append(objs, o)
	}
	return objs
}

// yamlFiles lists the embedded YAML files, kustomization.yaml included.
func yamlFiles(t *testing.T) []string {
	t.Helper()
	names, err := fs.Glob(Manifests, "*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 4 {
		t.Fatalf("%d embedded YAML files: %v", len(names), names)
	}
	return names
}

// manifests decodes every embedded manifest (kustomization.yaml aside,
// examples included).
func manifests(t *testing.T) []object {
	t.Helper()
	var objs []object
	for _, name := range yamlFiles(t) {
		if name == kustomizationFile {
			continue
		}
		data, err := fs.ReadFile(Manifests, name)
		if err != nil {
			t.Fatal(err)
		}
		docs := decodeAll(t, name, data)
		if len(docs) == 0 {
			t.Errorf("%s holds no object", name)
		}
		objs = append(objs, docs...)
	}
	return objs
}

// kustomization is the part of kustomize's Kustomization type (package
// sigs.k8s.io/kustomize/api/types) these manifests use. It is local
// because that module's current release needs Go 1.27, and the last one
// that builds on 1.26 pulls in go-openapi, gnostic, protobuf and kyaml
// for a file of a dozen lines. Strict decoding rejects every field not
// here, so a field kustomize knows but this struct does not fails the
// test: add it here when the file needs it.
type kustomization struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Labels     []struct {
		Pairs            map[string]string `json:"pairs"`
		IncludeSelectors bool              `json:"includeSelectors,omitempty"`
		IncludeTemplates bool              `json:"includeTemplates,omitempty"`
	} `json:"labels,omitempty"`
	Resources          []string    `json:"resources,omitempty"`
	ConfigMapGenerator []generator `json:"configMapGenerator,omitempty"`
	SecretGenerator    []generator `json:"secretGenerator,omitempty"`
	Images             []struct {
		Name    string `json:"name"`
		NewName string `json:"newName,omitempty"`
		NewTag  string `json:"newTag,omitempty"`
		Digest  string `json:"digest,omitempty"`
	} `json:"images,omitempty"`
}

// generator is a configMapGenerator or secretGenerator entry.
type generator struct {
	Name     string   `json:"name"`
	Literals []string `json:"literals,omitempty"`
	Files    []string `json:"files,omitempty"`
	Envs     []string `json:"envs,omitempty"`
	Type     string   `json:"type,omitempty"`
}

// keys is the generated object's keys: each literal's name and each
// file's key (KEY=path, or the file's base name).
func (g generator) keys() []string {
	var keys []string
	for _, l := range g.Literals {
		k, _, _ := strings.Cut(l, "=")
		keys = append(keys, k)
	}
	for _, f := range g.Files {
		if k, _, ok := strings.Cut(f, "="); ok {
			keys = append(keys, k)
		} else {
			keys = append(keys, path.Base(f))
		}
	}
	return keys
}

// filePath is the path a files entry reads (after any "KEY=").
func filePath(entry string) string {
	if _, p, ok := strings.Cut(entry, "="); ok {
		return p
	}
	return entry
}

// readKustomization decodes kustomization.yaml strictly.
func readKustomization(t *testing.T) kustomization {
	t.Helper()
	data, err := fs.ReadFile(Manifests, kustomizationFile)
	if err != nil {
		t.Fatal(err)
	}
	var k kustomization
	if err := strictUnmarshal(data, &k); err != nil {
		t.Fatalf("%s: %v", kustomizationFile, err)
	}
	if k.APIVersion != "kustomize.config.k8s.io/v1beta1" || k.Kind != "Kustomization" {
		t.Fatalf("%s: apiVersion %q, kind %q", kustomizationFile, k.APIVersion, k.Kind)
	}
	return k
}

// definitions is every object a reference may name: kind -> name -> its
// keys (a ConfigMap's or Secret's data keys; nil for other kinds).
type definitions map[string]map[string][]string

func (d definitions) add(kind, name string, keys []string) {
	if d[kind] == nil {
		d[kind] = map[string][]string{}
	}
	d[kind][name] = append(d[kind][name], keys...)
}

// define collects the objects of objs and of k's generators.
func define(objs []object, k *kustomization) definitions {
	d := definitions{}
	for _, o := range objs {
		var keys []string
		switch v := o.obj.(type) {
		case *corev1.ConfigMap:
			for key := range v.Data {
				keys = append(keys, key)
			}
			for key := range v.BinaryData {
				keys = append(keys, key)
			}
		case *corev1.Secret:
			for key := range v.Data {
				keys = append(keys, key)
			}
			for key := range v.StringData {
				keys = append(keys, key)
			}
		}
		d.add(o.kind, o.name, keys)
	}
	if k != nil {
		for _, g := range k.ConfigMapGenerator {
			d.add("ConfigMap", g.Name, g.keys())
		}
		for _, g := range k.SecretGenerator {
			d.add("Secret", g.Name, g.keys())
		}
	}
	return d
}

// workload is one Deployment's pod template, with where it came from.
type workload struct {
	where string
	name  string
	dep   *appsv1.Deployment
	pod   *corev1.PodSpec
}

// workloads lists the Deployments of objs.
func workloads(objs []object) []workload {
	var ws []workload
	for _, o := range objs {
		if d, ok := o.obj.(*appsv1.Deployment); ok {
			ws = append(ws, workload{where: o.where, name: o.name, dep: d, pod: &d.Spec.Template.Spec})
		}
	}
	return ws
}

// role names what a container runs, from its arguments per the CLI
// contract: "trainer" and "evaluator" (train --role R), "selfplay"
// (selfplay --follow), or "" for anything else.
func role(c corev1.Container) string {
	args := append(slices.Clone(c.Command), c.Args...)
	if len(args) == 0 {
		return ""
	}
	switch args[0] {
	case "train":
		if i := slices.Index(args, "--role"); i >= 0 && i+1 < len(args) {
			return args[i+1]
		}
	case "selfplay":
		if slices.Contains(args, "--follow") {
			return "selfplay"
		}
	}
	return ""
}

// TestManifestsDecodeStrictly decodes every document of every manifest
// into its Kubernetes type, rejecting unknown fields and kinds, and holds
// the set of objects to what docs/scaling.md describes.
func TestManifestsDecodeStrictly(t *testing.T) {
	objs := manifests(t)
	var got []string
	seen := map[string]string{}
	for _, o := range objs {
		id := o.kind + "/" + o.name
		if prev, dup := seen[id]; dup {
			t.Errorf("%s defined twice: %s and %s", id, prev, o.where)
		}
		seen[id] = o.where
		got = append(got, id)
	}
	slices.Sort(got)
	want := []string{
		"Deployment/bomberzero-evaluator", "Deployment/bomberzero-selfplay", "Deployment/bomberzero-trainer",
		"Namespace/bomberzero", "Secret/bomberzero-credentials", "ServiceAccount/bomberzero",
	}
	if !slices.Equal(got, want) {
		t.Errorf("objects %v, want %v", got, want)
	}
}

// TestDecodeDocumentIsStrict feeds the decoder broken manifests: each
// must be refused, or the test above proves nothing.
func TestDecodeDocumentIsStrict(t *testing.T) {
	good := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\nspec:\n  replicas: 1\n"
	if _, err := decodeDocument([]byte(good)); err != nil {
		t.Fatalf("a good Deployment: %v", err)
	}
	for _, c := range []struct{ why, doc string }{
		{"misspelt field", strings.Replace(good, "replicas", "replica", 1)},
		{"field in the wrong case", strings.Replace(good, "replicas", "Replicas", 1)},
		{"field at the wrong level", good + "replicas: 1\n"},
		{"wrong type", strings.Replace(good, "replicas: 1", "replicas: one", 1)},
		{"duplicate key", good + "  replicas: 2\n"},
		{"unknown kind", strings.Replace(good, "kind: Deployment", "kind: Deploymnet", 1)},
		{"kind of another group", strings.Replace(good, "apps/v1", "extensions/v1beta1", 1)},
		{"no kind", strings.Replace(good, "kind: Deployment\n", "", 1)},
		{"no name", strings.Replace(good, "  name: x\n", "  labels: {}\n", 1)},
		{"unknown metadata field", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n  labelz: {}\n"},
		{"bad container field", strings.Replace(good, "  replicas: 1\n",
			"  template:\n    spec:\n      containers:\n        - name: c\n          imagee: x\n", 1)},
		{"bad quantity", strings.Replace(good, "  replicas: 1\n",
			"  template:\n    spec:\n      containers:\n        - name: c\n          resources:\n            limits:\n              cpu: two\n", 1)},
	} {
		if _, err := decodeDocument([]byte(c.doc)); err == nil {
			t.Errorf("%s: decoded without error:\n%s", c.why, c.doc)
		}
	}
}

// TestSplitDocuments checks the multi-document split: separators with
// and without comments, empty and comment-only documents dropped.
func TestSplitDocuments(t *testing.T) {
	in := "# header\n---\na: 1\n---   # two\nb: 2\n---\n\n# only a comment\n---\nc: |\n  ---x\n"
	docs := splitDocuments([]byte(in))
	var got []string
	for _, d := range docs {
		got = append(got, strings.TrimSpace(string(d)))
	}
	want := []string{"a: 1", "b: 2", "c: |\n  ---x"}
	if !slices.Equal(got, want) {
		t.Errorf("split %q into %q, want %q", in, got, want)
	}
}

// TestKustomizationListsEveryManifest checks kustomization.yaml: it
// decodes strictly, lists exactly the manifest files present (examples
// excepted: those must not be applied), and the files its generators
// read exist.
func TestKustomizationListsEveryManifest(t *testing.T) {
	k := readKustomization(t)
	var want []string
	for _, name := range yamlFiles(t) {
		if name != kustomizationFile && !isExample(name) {
			want = append(want, name)
		}
	}
	got := slices.Clone(k.Resources)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("%s resources %v, want the manifest files %v", kustomizationFile, got, want)
	}
	if len(slices.Compact(got)) != len(k.Resources) {
		t.Errorf("%s lists a resource twice: %v", kustomizationFile, k.Resources)
	}
	for _, g := range append(slices.Clone(k.ConfigMapGenerator), k.SecretGenerator...) {
		for _, f := range append(slices.Clone(g.Files), g.Envs...) {
			if _, err := os.Stat(filePath(f)); err != nil {
				t.Errorf("generator %s reads %s: %v", g.Name, f, err)
			}
		}
	}
	if k.Namespace == "" {
		t.Errorf("%s sets no namespace", kustomizationFile)
	}
}

// TestRolesPerContract checks the three roles of the CLI contract: one
// workload each, all against $(RUN_URL); exactly one trainer, which a
// rollout stops before it starts another; one evaluator.
func TestRolesPerContract(t *testing.T) {
	ws := workloads(manifests(t))
	byRole := map[string][]workload{}
	for _, w := range ws {
		if len(w.pod.Containers) != 1 {
			t.Errorf("%s: %d containers, want 1", w.where, len(w.pod.Containers))
			continue
		}
		c := w.pod.Containers[0]
		r := role(c)
		if r == "" {
			t.Errorf("%s: arguments %q run no role of the contract", w.where, c.Args)
			continue
		}
		byRole[r] = append(byRole[r], w)
		if i := slices.Index(c.Args, "--run"); i < 0 || i+1 >= len(c.Args) || c.Args[i+1] != "$(RUN_URL)" {
			t.Errorf("%s: arguments %q do not pass --run $(RUN_URL)", w.where, c.Args)
		}
	}
	for _, r := range []string{"trainer", "selfplay", "evaluator"} {
		if len(byRole[r]) != 1 {
			t.Errorf("%d workloads of role %s, want 1", len(byRole[r]), r)
		}
	}
	for r, list := range byRole {
		if !slices.Contains([]string{"trainer", "selfplay", "evaluator"}, r) {
			t.Errorf("unknown role %q", r)
		}
		for _, w := range list {
			if r == "selfplay" {
				continue
			}
			if w.dep.Spec.Replicas == nil || *w.dep.Spec.Replicas != 1 {
				t.Errorf("%s (%s): replicas %s, want exactly 1", w.where, r, replicas(w.dep))
			}
			if w.dep.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
				t.Errorf("%s (%s): strategy %q, want Recreate (a rolling update runs two at once)", w.where, r, w.dep.Spec.Strategy.Type)
			}
		}
	}
}

// replicas is a Deployment's replicas as text ("unset" when nil).
func replicas(d *appsv1.Deployment) string {
	if d.Spec.Replicas == nil {
		return "unset"
	}
	return strconv.Itoa(int(*d.Spec.Replicas))
}

// TestSelectorsMatchTemplates checks that each Deployment's selector
// selects its own pods and no other Deployment's.
func TestSelectorsMatchTemplates(t *testing.T) {
	ws := workloads(manifests(t))
	for _, w := range ws {
		sel := w.dep.Spec.Selector
		if sel == nil || len(sel.MatchLabels) == 0 {
			t.Errorf("%s: no selector", w.where)
			continue
		}
		for _, v := range ws {
			matches := true
			for k, val := range sel.MatchLabels {
				if v.dep.Spec.Template.Labels[k] != val {
					matches = false
				}
			}
			if matches != (v.name == w.name) {
				t.Errorf("%s's selector %v matches %s's pods: %v", w.name, sel.MatchLabels, v.name, matches)
			}
		}
	}
}

// TestOneImage checks that every container runs the same image, and
// that kustomization.yaml's images entry rewrites it.
func TestOneImage(t *testing.T) {
	images := map[string]bool{}
	for _, w := range workloads(manifests(t)) {
		for _, c := range append(slices.Clone(w.pod.InitContainers), w.pod.Containers...) {
			if c.Image == "" {
				t.Errorf("%s: container %s has no image", w.where, c.Name)
			}
			images[c.Image] = true
		}
	}
	if len(images) != 1 {
		t.Fatalf("containers run %d images %v, want one", len(images), images)
	}
	k := readKustomization(t)
	for image := range images {
		if len(k.Images) != 1 || k.Images[0].Name != image || k.Images[0].NewName == "" || k.Images[0].NewTag == "" && k.Images[0].Digest == "" {
			t.Errorf("%s: images %+v, want one entry naming %q with a newName and a tag or digest", kustomizationFile, k.Images, image)
		}
	}
}

// TestReferencesResolve checks that every ConfigMap, Secret,
// ServiceAccount and volume a pod names is defined: by a manifest, a
// kustomize generator or the pod itself; and that a ConfigMap or Secret
// key it names is one the object holds.
func TestReferencesResolve(t *testing.T) {
	objs := manifests(t)
	k := readKustomization(t)
	for _, err := range unresolved(workloads(objs), define(objs, &k)) {
		t.Error(err)
	}
}

// unresolved lists the references of ws that d does not define.
func unresolved(ws []workload, d definitions) []error {
	var errs []error
	need := func(where, kind, name, key string) {
		keys, ok := d[kind][name]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("%s: %s %q is not defined", where, kind, name))
		case key != "" && !slices.Contains(keys, key):
			errs = append(errs, fmt.Errorf("%s: %s %q has no key %q (it has %v)", where, kind, name, key, keys))
		}
	}
	for _, w := range ws {
		p := w.pod
		if p.ServiceAccountName != "" {
			need(w.where, "ServiceAccount", p.ServiceAccountName, "")
		}
		for _, s := range p.ImagePullSecrets {
			need(w.where, "Secret", s.Name, "")
		}
		volumes := map[string]bool{}
		for _, v := range p.Volumes {
			volumes[v.Name] = true
			if cm := v.ConfigMap; cm != nil {
				need(w.where+" volume "+v.Name, "ConfigMap", cm.Name, "")
				for _, it := range cm.Items {
					need(w.where+" volume "+v.Name, "ConfigMap", cm.Name, it.Key)
				}
			}
			if s := v.Secret; s != nil {
				need(w.where+" volume "+v.Name, "Secret", s.SecretName, "")
				for _, it := range s.Items {
					need(w.where+" volume "+v.Name, "Secret", s.SecretName, it.Key)
				}
			}
			if pr := v.Projected; pr != nil {
				for _, src := range pr.Sources {
					if src.ConfigMap != nil {
						need(w.where+" volume "+v.Name, "ConfigMap", src.ConfigMap.Name, "")
					}
					if src.Secret != nil {
						need(w.where+" volume "+v.Name, "Secret", src.Secret.Name, "")
					}
				}
			}
		}
		for _, c := range append(slices.Clone(p.InitContainers), p.Containers...) {
			where := w.where + " container " + c.Name
			for _, e := range c.EnvFrom {
				if e.ConfigMapRef != nil {
					need(where, "ConfigMap", e.ConfigMapRef.Name, "")
				}
				if e.SecretRef != nil {
					need(where, "Secret", e.SecretRef.Name, "")
				}
			}
			for _, e := range c.Env {
				if e.ValueFrom == nil {
					continue
				}
				if r := e.ValueFrom.ConfigMapKeyRef; r != nil {
					need(where+" env "+e.Name, "ConfigMap", r.Name, r.Key)
				}
				if r := e.ValueFrom.SecretKeyRef; r != nil {
					need(where+" env "+e.Name, "Secret", r.Name, r.Key)
				}
			}
			for _, m := range c.VolumeMounts {
				if !volumes[m.Name] {
					errs = append(errs, fmt.Errorf("%s mounts volume %q, which the pod does not define", where, m.Name))
				}
			}
		}
	}
	return errs
}

// variable is a $(NAME) reference in a container's command or arguments.
var variable = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// TestArgumentVariablesDefined checks that every $(NAME) in a container's
// command and arguments is an env entry of that container: Kubernetes
// passes an undefined one through as the literal text, so a typo would
// reach the binary as a run URL of "$(RUN_ULR)".
func TestArgumentVariablesDefined(t *testing.T) {
	for _, w := range workloads(manifests(t)) {
		for _, c := range w.pod.Containers {
			env := map[string]bool{}
			for _, e := range c.Env {
				env[e.Name] = true
			}
			for _, a := range append(slices.Clone(c.Command), c.Args...) {
				for _, m := range variable.FindAllStringSubmatch(a, -1) {
					if !env[m[1]] {
						t.Errorf("%s container %s: argument %q names $(%s), not in its env", w.where, c.Name, a, m[1])
					}
				}
			}
		}
	}
}

// TestContainersLimitedAndUnprivileged checks every container: CPU and
// memory limits with requests no higher; not root, no privilege, no
// escalation, no capabilities, a read-only root filesystem; and a grace
// period set for the contract's clean SIGTERM.
func TestContainersLimitedAndUnprivileged(t *testing.T) {
	ws := workloads(manifests(t))
	if len(ws) == 0 {
		t.Fatal("no workloads")
	}
	for _, w := range ws {
		p := w.pod
		if p.TerminationGracePeriodSeconds == nil || *p.TerminationGracePeriodSeconds < 5 || *p.TerminationGracePeriodSeconds > 300 {
			t.Errorf("%s: terminationGracePeriodSeconds %v, want 5 to 300", w.where, p.TerminationGracePeriodSeconds)
		}
		if p.HostNetwork || p.HostPID || p.HostIPC {
			t.Errorf("%s: shares a host namespace", w.where)
		}
		if p.AutomountServiceAccountToken == nil || *p.AutomountServiceAccountToken {
			t.Errorf("%s: mounts a service account token it never uses", w.where)
		}
		for _, c := range append(slices.Clone(p.InitContainers), p.Containers...) {
			where := w.where + " container " + c.Name
			for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
				lim, ok := c.Resources.Limits[r]
				if !ok || lim.Sign() <= 0 {
					t.Errorf("%s: no %s limit", where, r)
					continue
				}
				if req, ok := c.Resources.Requests[r]; ok && req.Cmp(lim) > 0 {
					t.Errorf("%s: %s request %s above its limit %s", where, r, req.String(), lim.String())
				}
			}
			ps, cs := p.SecurityContext, c.SecurityContext
			if ps == nil {
				ps = &corev1.PodSecurityContext{}
			}
			if cs == nil {
				t.Errorf("%s: no securityContext", where)
				continue
			}
			nonRoot, uid := ps.RunAsNonRoot, ps.RunAsUser
			if cs.RunAsNonRoot != nil {
				nonRoot = cs.RunAsNonRoot
			}
			if cs.RunAsUser != nil {
				uid = cs.RunAsUser
			}
			if nonRoot == nil || !*nonRoot {
				t.Errorf("%s: runAsNonRoot is not true", where)
			}
			if uid != nil && *uid == 0 {
				t.Errorf("%s: runs as uid 0", where)
			}
			if cs.Privileged != nil && *cs.Privileged {
				t.Errorf("%s: privileged", where)
			}
			if cs.AllowPrivilegeEscalation == nil || *cs.AllowPrivilegeEscalation {
				t.Errorf("%s: allowPrivilegeEscalation is not false", where)
			}
			if cs.ReadOnlyRootFilesystem == nil || !*cs.ReadOnlyRootFilesystem {
				t.Errorf("%s: root filesystem not read-only", where)
			}
			if cs.Capabilities == nil || !slices.Contains(cs.Capabilities.Drop, "ALL") || len(cs.Capabilities.Add) > 0 {
				t.Errorf("%s: capabilities %+v, want drop ALL and add none", where, cs.Capabilities)
			}
			if !writableTmp(p, c) {
				t.Errorf("%s: no emptyDir mounted at /tmp, the only place a read-only root leaves to write", where)
			}
		}
	}
}

// writableTmp reports whether c mounts an emptyDir volume of p at /tmp.
func writableTmp(p *corev1.PodSpec, c corev1.Container) bool {
	for _, m := range c.VolumeMounts {
		if m.MountPath != "/tmp" || m.ReadOnly {
			continue
		}
		for _, v := range p.Volumes {
			if v.Name == m.Name && v.EmptyDir != nil {
				return true
			}
		}
	}
	return false
}

// goMemLimit parses a GOMEMLIMIT value: bytes, with an optional B, KiB,
// MiB, GiB or TiB suffix (runtime/debug.SetMemoryLimit's syntax).
func goMemLimit(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("GOMEMLIMIT %q: want a positive number of B, KiB, MiB, GiB or TiB", s)
	}
	return n * mult, nil
}

// TestGoMemLimitUnderMemoryLimit checks that a container's GOMEMLIMIT,
// where set, lies between half and all of its memory limit: above the
// limit the kernel kills the pod before Go's collector works harder.
func TestGoMemLimitUnderMemoryLimit(t *testing.T) {
	if n, err := goMemLimit("3600MiB"); err != nil || n != 3600<<20 {
		t.Fatalf("goMemLimit(3600MiB) = %d, %v", n, err)
	}
	for _, bad := range []string{"3600MB", "", "1.5GiB", "-1"} {
		if _, err := goMemLimit(bad); err == nil {
			t.Errorf("goMemLimit(%q): no error", bad)
		}
	}
	set := 0
	for _, w := range workloads(manifests(t)) {
		for _, c := range w.pod.Containers {
			for _, e := range c.Env {
				if e.Name != "GOMEMLIMIT" {
					continue
				}
				set++
				n, err := goMemLimit(e.Value)
				if err != nil {
					t.Errorf("%s: %v", w.where, err)
					continue
				}
				lim := c.Resources.Limits[corev1.ResourceMemory]
				if n >= lim.Value() || n < lim.Value()/2 {
					t.Errorf("%s container %s: GOMEMLIMIT %s, want under its memory limit %s and over half of it", w.where, c.Name, e.Value, lim.String())
				}
			}
		}
	}
	if set == 0 {
		t.Error("no container sets GOMEMLIMIT")
	}
}

// container returns the one container of the workload of role r.
func container(t *testing.T, r string) corev1.Container {
	t.Helper()
	for _, w := range workloads(manifests(t)) {
		for _, c := range w.pod.Containers {
			if role(c) == r {
				return c
			}
		}
	}
	t.Fatalf("no container of role %s", r)
	return corev1.Container{}
}

// TestThreadsMatchCPULimits checks training.toml against the pods: the
// trainer's train.threads and the evaluator's eval.workers equal their
// CPU limits (0 would mean every core of the node); the workers take
// --workers from their own limit.
func TestThreadsMatchCPULimits(t *testing.T) {
	var cfg struct {
		Train struct{ Threads int64 }
		Eval  struct{ Workers int64 }
	}
	if _, err := toml.Decode(string(TrainingConfig), &cfg); err != nil {
		t.Fatal(err)
	}
	cpus := func(c corev1.Container) int64 {
		q := c.Resources.Limits[corev1.ResourceCPU]
		return q.Value() // rounded up to whole cores
	}
	if tr := container(t, "trainer"); cfg.Train.Threads != cpus(tr) {
		t.Errorf("training.toml train.threads = %d, the trainer's CPU limit %d", cfg.Train.Threads, cpus(tr))
	}
	if ev := container(t, "evaluator"); cfg.Eval.Workers != cpus(ev) {
		t.Errorf("training.toml eval.workers = %d, the evaluator's CPU limit %d", cfg.Eval.Workers, cpus(ev))
	}
	sp := container(t, "selfplay")
	i := slices.Index(sp.Args, "--workers")
	if i < 0 || i+1 >= len(sp.Args) {
		t.Fatalf("the worker's arguments %q have no --workers", sp.Args)
	}
	m := variable.FindStringSubmatch(sp.Args[i+1])
	ok := false
	for _, e := range sp.Env {
		if m != nil && e.Name == m[1] && e.ValueFrom != nil && e.ValueFrom.ResourceFieldRef != nil {
			r := e.ValueFrom.ResourceFieldRef
			ok = r.Resource == "limits.cpu" && r.Divisor.Cmp(resource.MustParse("1")) == 0
		}
	}
	if !ok {
		t.Errorf("the worker's --workers %q is not its limits.cpu in cores", sp.Args[i+1])
	}
}

// TestKustomizeBuild renders the kustomization with kubectl (skipped
// without it) and checks the result as the cluster will see it: every
// object decodes strictly, generated names with their hash suffix are
// what the pods reference, every pod's image is the rewritten one, and
// every object is in the namespace.
func TestKustomizeBuild(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("no kubectl on PATH")
	}
	var out, errb bytes.Buffer
	cmd := exec.Command(kubectl, "kustomize", ".")
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("kubectl kustomize: %v: %s", err, errb.String())
	}
	objs := decodeAll(t, "kubectl kustomize", out.Bytes())
	k := readKustomization(t)
	var kinds []string
	for _, o := range objs {
		kinds = append(kinds, o.kind)
		if o.kind == "Namespace" {
			continue
		}
		var ns string
		switch v := o.obj.(type) {
		case *appsv1.Deployment:
			ns = v.Namespace
		case *corev1.ConfigMap:
			ns = v.Namespace
		case *corev1.ServiceAccount:
			ns = v.Namespace
		case *corev1.Secret:
			ns = v.Namespace
		}
		if ns != k.Namespace {
			t.Errorf("%s %s in namespace %q, want %q", o.kind, o.name, ns, k.Namespace)
		}
	}
	slices.Sort(kinds)
	if want := []string{"ConfigMap", "Deployment", "Deployment", "Deployment", "Namespace", "ServiceAccount"}; !slices.Equal(kinds, want) {
		t.Errorf("rendered kinds %v, want %v", kinds, want)
	}
	// The Secret is made by hand from its example (docs/scaling.md), not
	// rendered.
	d := define(objs, nil)
	for _, o := range manifests(t) {
		if isExample(o.file) {
			d.add(o.kind, o.name, nil)
		}
	}
	for _, err := range unresolved(workloads(objs), d) {
		t.Error(err)
	}
	want := k.Images[0].NewName + ":" + k.Images[0].NewTag
	for _, w := range workloads(objs) {
		for _, c := range w.pod.Containers {
			if c.Image != want {
				t.Errorf("%s: image %q, want %q", w.name, c.Image, want)
			}
		}
	}
}
