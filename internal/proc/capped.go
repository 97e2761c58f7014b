package proc

import (
	"fmt"
	"os"
	"sync"
)

// CappedFile is a log file that never grows past its cap: the first half of
// the cap is written through as it arrives (so `tail -f` and the TUI see a
// live log), the last half is kept in memory and written on Close, with a
// marker saying how much was left out between them. A runaway agent printing
// gigabytes costs cap bytes of disk, and the log keeps both how the attempt
// started and how it ended.
type CappedFile struct {
	mu      sync.Mutex
	f       *os.File
	head    int64 // bytes still allowed straight through
	tailCap int
	tail    []byte // ring buffer of the last tailCap bytes past the head
	start   int    // index of the oldest byte in tail once it is full
	over    int64  // bytes that went past the head
	written int64
}

// CreateCapped creates (or truncates) path; max <= 0 means no cap.
func CreateCapped(path string, max int64) (*CappedFile, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("creating log %s: %w", path, err)
	}
	c := &CappedFile{f: f, head: -1}
	if max > 0 {
		c.head = max / 2
		c.tailCap = int(max - max/2)
	}
	return c, nil
}

// Write never fails short: past the cap, bytes go to the in-memory tail.
func (c *CappedFile) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	c.written += int64(n)
	if c.head < 0 {
		_, err := c.f.Write(p)
		return n, err
	}
	if c.head > 0 {
		k := min(int64(len(p)), c.head)
		if _, err := c.f.Write(p[:k]); err != nil {
			return n, err
		}
		c.head -= k
		p = p[k:]
	}
	if len(p) > 0 {
		c.keep(p)
	}
	return n, nil
}

func (c *CappedFile) keep(p []byte) {
	c.over += int64(len(p))
	if len(p) >= c.tailCap {
		c.tail = append(c.tail[:0], p[len(p)-c.tailCap:]...)
		c.start = 0
		return
	}
	for len(p) > 0 {
		if len(c.tail) < c.tailCap {
			k := min(len(p), c.tailCap-len(c.tail))
			c.tail = append(c.tail, p[:k]...)
			p = p[k:]
			continue
		}
		k := copy(c.tail[c.start:], p)
		c.start = (c.start + k) % c.tailCap
		p = p[k:]
	}
}

// Written is the number of bytes written, including those left out.
func (c *CappedFile) Written() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.written
}

// Close writes the kept tail (after an omission marker if bytes were dropped)
// and closes the file.
func (c *CappedFile) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return nil
	}
	var err error
	if len(c.tail) > 0 {
		if omitted := c.over - int64(len(c.tail)); omitted > 0 {
			_, err = fmt.Fprintf(c.f, "\n... [%d bytes omitted] ...\n", omitted)
		}
		if err == nil {
			_, err = c.f.Write(c.tail[c.start:])
		}
		if err == nil {
			_, err = c.f.Write(c.tail[:c.start])
		}
	}
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	c.f = nil
	return err
}
