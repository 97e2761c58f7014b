package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestParseFlags(t *testing.T) {
	o, err := parseFlags(nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.IP != "127.0.0.1" || o.Port != 7233 || !reflect.DeepEqual(o.Namespaces, []string{"default"}) || o.DBFile != "" {
		t.Fatalf("defaults = %+v", o)
	}
	o, err = parseFlags([]string{"--port", "0", "--namespace", "a", "--namespace", "b", "--ready-file", "r", "--exit-with-stdin"})
	if err != nil {
		t.Fatal(err)
	}
	if o.Port != 0 || !reflect.DeepEqual(o.Namespaces, []string{"a", "b"}) || o.ReadyFile != "r" || !o.StdinExit {
		t.Fatalf("parsed = %+v", o)
	}
	for _, bad := range [][]string{{"--namespace", " "}, {"extra"}, {"--port", "x"}} {
		if _, err := parseFlags(bad); err == nil {
			t.Errorf("parseFlags(%q) accepted", bad)
		}
	}
}

func TestWriteReadyFileIsWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ready")
	if err := writeReadyFile(path, "127.0.0.1:7233"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "127.0.0.1:7233\n" {
		t.Fatalf("ready file = %q, %v", data, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("left %d files in the directory; want only the ready file", len(entries))
	}
}
