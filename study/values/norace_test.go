//go:build !race

package values

// raceDetector says whether the tests run under the race detector; see
// race_test.go.
const raceDetector = false
