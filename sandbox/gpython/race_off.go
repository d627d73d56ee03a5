//go:build !race

package gpython

const raceEnabled = false
