//go:build !race

package train

// raceDetector reports whether the tests run under the race detector.
const raceDetector = false
