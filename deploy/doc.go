// Package deploy holds bomberzero's Kubernetes manifests (one trainer,
// a scalable Deployment of self-play workers and one evaluator, all
// against one run in object storage) and embeds them so that their tests,
// and any tool that wants them, read the very files kubectl applies.
// docs/scaling.md says how to use them; the Dockerfile at the repository
// root builds the image they run.
//
// kustomization.yaml lists the resources; training.toml is the trainer's
// --config, turned into a ConfigMap by kustomize; secret.example.yaml is a
// template for the credentials Secret and is deliberately not applied.
package deploy

import "embed"

// Manifests holds every YAML file of the directory: the resources,
// kustomization.yaml and secret.example.yaml.
//
//go:embed *.yaml
var Manifests embed.FS

// TrainingConfig is training.toml, the trainer's --config when it
// creates a run (the keys that differ from configs/training/default.toml).
//
//go:embed training.toml
var TrainingConfig []byte
