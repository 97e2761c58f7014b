package human

import "testing"

func TestDuration(t *testing.T) {
	t.Parallel()
	for secs, want := range map[float64]string{
		0: "0s", 45.2: "45s", 59.6: "1m00s", 192: "3m12s", 3725: "1h02m",
		50 * 3600: "2d02h", 48*3600 - 1: "47h59m", 26*3600 + 59: "26h00m", 9*24*3600 + 3*3600: "9d03h",
	} {
		if got := Duration(secs); got != want {
			t.Errorf("Duration(%v) = %q, want %q", secs, got, want)
		}
	}
}

func TestPluralAndCount(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n          int
		plural, ct string
	}{{0, "batches", "0 batches"}, {1, "batch", "1 batch"}, {2, "batches", "2 batches"}} {
		if got := Plural(c.n, "batch", "batches"); got != c.plural {
			t.Errorf("Plural(%d) = %q", c.n, got)
		}
		if got := Count(c.n, "batch", "batches"); got != c.ct {
			t.Errorf("Count(%d) = %q", c.n, got)
		}
	}
}
