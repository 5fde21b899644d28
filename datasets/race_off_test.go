//go:build !race

package datasets

// raceEnabled is true in -race builds (see race_on_test.go).
const raceEnabled = false
