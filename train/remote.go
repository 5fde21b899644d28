package train

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"bomberzero/internal/readfile"
	"bomberzero/internal/runstore"
	"bomberzero/metrics"
)

// The roles of Options.Role.
const (
	// RoleAll plays, trains and evaluates in one process: the default.
	RoleAll = "all"
	// RoleTrainer trains on the games that self-play workers (Follow)
	// land in the run's store and publishes each generation's model for
	// them; it plays and rates no games itself.
	RoleTrainer = "trainer"
	// RoleEvaluator rates each published model (Evaluate).
	RoleEvaluator = "evaluator"
)

// Keys of a run in a store beyond those of a run directory.
const (
	// latestName is the work order the trainer publishes for workers: the
	// generation being played and the model that plays it.
	latestName = "latest.json"
	// manifestDir holds one entry per data chunk a worker landed, written
	// after the chunk: a chunk without one is never read.
	manifestDir = "manifest"
	// evalDir holds the evaluator's record of each rated model.
	evalDir = metrics.EvalDir
	// ingestedDir holds, per finished generation, the chunks a trainer
	// collected in it (ingested/gen-NNNN.json).
	ingestedDir = "ingested"
	// trainerLease is the name of the lease that makes one process the
	// writer of a run in a store.
	trainerLease = "trainer"
)

// DefaultLeaseTTL is how long a trainer's lease outlives its last
// heartbeat: a trainer killed on one machine can be restarted on
// another after this long.
const DefaultLeaseTTL = time.Minute

// remote is a run kept in a store: the run directory is a working copy,
// pulled when the run starts on this machine and pushed after each save.
type remote struct {
	store  *runstore.Store
	mirror *runstore.Mirror
	lease  *runstore.Lease
}

// openRemote takes the run's lease and pulls the store's copy of the run
// into dir. The trainer role leaves the workers' folders (data, games,
// manifests) out of the mirror: it collects chunks itself.
func openRemote(ctx context.Context, opt Options, logf func(string, ...any)) (*remote, error) {
	ttl := opt.LeaseTTL
	if ttl <= 0 {
		ttl = DefaultLeaseTTL
	}
	lease, err := runstore.AcquireLease(ctx, opt.Store, trainerLease, runstore.Holder(), ttl, 2*ttl, logf)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	skip := []string{"lease/", manifestDir + "/", evalDir + "/"}
	if opt.Role == RoleTrainer {
		skip = append(skip, dataDir+"/", gamesDir+"/")
	}
	m := &runstore.Mirror{Store: opt.Store, Dir: opt.Dir, Skip: skip,
		Last:    []string{latestName, "state.json"},
		Mutable: []string{configName, metricsName, plotsDir + "/"}}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		lease.Release(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("train: %w", err)
	}
	n, err := m.Pull(ctx)
	if err != nil {
		lease.Release(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("train: %w", err)
	}
	if n > 0 && logf != nil {
		logf("train: %s: copied %d files of the run into %s", opt.Store, n, opt.Dir)
	}
	return &remote{store: opt.Store, mirror: m, lease: lease}, nil
}

// push stores what changed in the run directory, after checking that this
// process still holds the run's lease. It is not cancelled with the run:
// a stopping run's last state must reach the store.
func (rm *remote) push(ctx context.Context) error {
	ctx = context.WithoutCancel(ctx)
	if err := rm.lease.Check(ctx); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if _, err := rm.mirror.Push(ctx); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}

// close releases the run's lease.
func (rm *remote) close(ctx context.Context) error {
	return rm.lease.Release(context.WithoutCancel(ctx))
}

// WorkOrder is latest.json: what the self-play workers of a run play now.
type WorkOrder struct {
	Version int `json:"version"`
	// Generation is the generation whose games are wanted.
	Generation int `json:"generation"`
	// Model is what plays: a network-free model spec ("material", ...),
	// "teacher" (the config's alpha-beta teacher), or a checkpoint key of
	// the run ("checkpoints/gen-0003.safetensors").
	Model string `json:"model"`
	// SHA256 is the checkpoint's checksum ("" for the others).
	SHA256 string `json:"sha256,omitempty"`
	// Published is when the trainer wrote the order.
	Published time.Time `json:"published"`
}

const workOrderVersion = 1

// teacherModel is WorkOrder.Model for the teacher's games.
const teacherModel = "teacher"

// publish writes latest.json for the current generation into the run
// directory (the next push stores it after the model it names).
func (r *runner) publish() error {
	wo := WorkOrder{Version: workOrderVersion, Generation: r.st.Generation, Published: time.Now().UTC()}
	free := r.cfg.NetworkFree(r.st.Generation)
	switch {
	case r.teaching():
		wo.Model = teacherModel
	case free != "":
		wo.Model = free
	default:
		wo.Model = filepath.ToSlash(filepath.Join(ckptDir, genName(r.st.Generation)+".safetensors"))
		data, err := readfile.Regular(filepath.Join(r.dir, filepath.FromSlash(wo.Model)), runstore.MaxFile)
		if err != nil {
			return fmt.Errorf("train: publishing the model: %w", err)
		}
		sum := sha256.Sum256(data)
		wo.SHA256 = hex.EncodeToString(sum[:])
	}
	data, err := json.MarshalIndent(wo, "", "  ")
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return writeAtomic(filepath.Join(r.dir, latestName), append(data, '\n'))
}

// ReadWorkOrder reads and checks a run's latest.json from its store.
func ReadWorkOrder(ctx context.Context, s *runstore.Store) (WorkOrder, error) {
	data, err := s.Read(ctx, latestName, 64<<10)
	if err != nil {
		return WorkOrder{}, err
	}
	var wo WorkOrder
	if err := json.Unmarshal(data, &wo); err != nil {
		return WorkOrder{}, fmt.Errorf("%s: %s: %w", s, latestName, err)
	}
	if wo.Version != workOrderVersion {
		return WorkOrder{}, fmt.Errorf("%s: %s: version %d, want %d", s, latestName, wo.Version, workOrderVersion)
	}
	if wo.Model == "" || wo.Generation < 0 {
		return WorkOrder{}, fmt.Errorf("%s: %s: field model %q or generation %d out of range", s, latestName, wo.Model, wo.Generation)
	}
	return wo, nil
}
