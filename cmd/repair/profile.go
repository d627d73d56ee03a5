package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfiles writes Go profiles of this run for `go tool pprof`, when
// the environment asks: REPAIR_CPUPROFILE=FILE a CPU profile of the whole
// run, REPAIR_MEMPROFILE=FILE a heap profile at its end (with every
// allocation sampled, so in-use and allocated bytes are exact). The
// returned function stops and writes them.
func startProfiles(stderr io.Writer) func() {
	cpu, mem := os.Getenv("REPAIR_CPUPROFILE"), os.Getenv("REPAIR_MEMPROFILE")
	if cpu == "" && mem == "" {
		return func() {}
	}
	var cf *os.File
	if cpu != "" {
		f, err := os.Create(cpu)
		if err != nil {
			fmt.Fprintf(stderr, "repair: REPAIR_CPUPROFILE: %v\n", err)
		} else if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "repair: REPAIR_CPUPROFILE: %v\n", err)
			f.Close()
		} else {
			cf = f
		}
	}
	if mem != "" {
		runtime.MemProfileRate = 1
	}
	return func() {
		if cf != nil {
			pprof.StopCPUProfile()
			cf.Close()
		}
		if mem != "" {
			f, err := os.Create(mem)
			if err != nil {
				fmt.Fprintf(stderr, "repair: REPAIR_MEMPROFILE: %v\n", err)
				return
			}
			defer f.Close()
			runtime.GC()
			if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
				fmt.Fprintf(stderr, "repair: REPAIR_MEMPROFILE: %v\n", err)
			}
		}
	}
}
