// dumps_heap.go: a Go program whose heap is known by construction, writing
// a series of pprof heap profiles with runtime/pprof (t702): every
// allocation sampled (MemProfileRate 1), so each profile's in-use bytes are
// exact; a leak of 32 KiB per step (leakSite, steady), a ring of 64 blocks
// of 32 KiB (cachePut, a plateau at 2 MiB), and 8 MiB held for four rounds
// (burstSite). Usage: dumps_heap DIR, which receives heap.N.pb.gz.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

var leak [200][]byte
var cache [64][]byte
var burst [][]byte

func leakSite(i int) { leak[i] = make([]byte, 32<<10) }

func cachePut(i int) { cache[i%64] = make([]byte, 32<<10) }

func burstSite() {
	burst = make([][]byte, 32)
	for k := range burst {
		burst[k] = make([]byte, 256<<10)
	}
}

func main() {
	runtime.MemProfileRate = 1
	dir := os.Args[1]
	for r := 0; r < 20; r++ {
		for i := 0; i < 10; i++ {
			leakSite(r*10 + i)
			cachePut(r*10 + i)
		}
		if r == 8 {
			burstSite()
		}
		if r == 12 {
			burst = nil
		}
		// The heap profile is as of the last completed collection.
		runtime.GC()
		f, err := os.Create(fmt.Sprintf("%s/heap.%d.pb.gz", dir, r))
		if err != nil {
			panic(err)
		}
		if err := pprof.WriteHeapProfile(f); err != nil {
			panic(err)
		}
		f.Close()
	}
}
