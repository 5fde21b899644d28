//go:build race

package values

// raceDetector says whether the tests run under the race detector
// (scripts/race.sh), which makes single-goroutine searches and statistical
// tests 5-10x slower and has nothing to find in them: those skip there and
// run in every other test run.
const raceDetector = true
