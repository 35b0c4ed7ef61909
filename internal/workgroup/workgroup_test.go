package workgroup

import (
	"errors"
	"sync/atomic"
	"testing"
)

func TestGroup_WaitReturnsFirstError(t *testing.T) {
	tests := []struct {
		name string
		errs []error
		want error
	}{
		{"none", nil, nil},
		{"all nil", []error{nil, nil, nil}, nil},
		{"one", []error{nil, errA, nil}, errA},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var g Group
			for _, err := range tt.errs {
				g.GoErr(func() error { return err })
			}
			if got := g.Wait(); !errors.Is(got, tt.want) {
				t.Fatalf("Wait() = %v, want %v", got, tt.want)
			}
		})
	}
}

var errA = errors.New("a")

func TestGroup_SetLimit(t *testing.T) {
	var g Group
	g.SetLimit(2)
	var running, most atomic.Int32
	for range 50 {
		g.GoErr(func() error {
			n := running.Add(1)
			for {
				m := most.Load()
				if n <= m || most.CompareAndSwap(m, n) {
					break
				}
			}
			running.Add(-1)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if m := most.Load(); m < 1 || m > 2 {
		t.Fatalf("%d ran at once, limit 2", m)
	}
}

// A panic in a worker is raised again by Wait, with the same value, after
// every worker finished; the process does not crash.
func TestGroup_WaitRaisesWorkerPanic(t *testing.T) {
	var g Group
	var finished atomic.Int32
	for i := range 4 {
		g.Go(func() {
			defer finished.Add(1)
			if i == 2 {
				panic("boom")
			}
		})
	}
	defer func() {
		r := recover()
		if r != "boom" {
			t.Fatalf("recovered %v, want boom", r)
		}
		if n := finished.Load(); n != 4 {
			t.Fatalf("%d workers finished before Wait raised, want 4", n)
		}
	}()
	g.Wait()
	t.Fatal("Wait returned after a worker panicked")
}
