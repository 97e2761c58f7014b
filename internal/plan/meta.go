package plan

import "strings"

// metaEntry is one "**Key**: value" metadata line of a phase section.
type metaEntry struct {
	key   string // as written, for messages ("Can Run With")
	value string
	line  int
}

// sectionMeta is a phase section's metadata; nil fields were not given.
// The first line giving a key wins.
type sectionMeta struct {
	deps, par, status, estimate *metaEntry
}

// metaKeys maps metadata keys (letters only) to the column they stand for.
// Unlike the table's header, a section's notes may say "> Requires: Node
// 20" or "> Blocked by: legal review" about anything, so only the keys
// that name phase dependencies for sure are metadata.
var metaKeys = map[string]column{
	"dependson": colDeps, "depends": colDeps, "dependencies": colDeps,
	"dependency": colDeps, "deps": colDeps, "dependsupon": colDeps,
	"parallelwith": colParallel, "canrunwith": colParallel, "runswith": colParallel,
	"parallel": colParallel, "canrunparallelwith": colParallel,
	"canruninparallelwith": colParallel, "runsinparallelwith": colParallel,
	"status": colStatus, "state": colStatus,
	"estimate": colEstimate, "est": colEstimate, "effort": colEstimate,
}

// read takes metadata from a block's lines. In a blockquote any "Key:
// value" line counts; in plain paragraphs and lists only lines whose key is
// bold, so prose such as "Status: tricky" is left alone.
// It reports whether any line held a metadata key.
func (m *sectionMeta) read(lines []rawLine, boldOnly bool) bool {
	found := false
	for _, l := range lines {
		if boldOnly && !strings.HasPrefix(l.text, "**") && !strings.HasPrefix(l.text, "__") {
			continue
		}
		for _, e := range splitMetaLine(l.text) {
			e.line = l.line
			m.set(e)
			found = true
		}
	}
	return found
}

// set records e under its key unless that key was already given.
func (m *sectionMeta) set(e metaEntry) {
	var slot **metaEntry
	switch metaKeys[letters(e.key)] {
	case colDeps:
		slot = &m.deps
	case colParallel:
		slot = &m.par
	case colStatus:
		slot = &m.status
	case colEstimate:
		slot = &m.estimate
	default:
		return
	}
	if *slot == nil {
		*slot = &e
	}
}

// splitMetaLine reads one line, which may hold several entries separated
// by "|", "·" or "•" ("**Depends On**: 1 · **Status**: ✅").
func splitMetaLine(s string) []metaEntry {
	if parts := strings.FieldsFunc(s, func(r rune) bool { return r == '|' || r == '·' || r == '•' }); len(parts) > 1 {
		var out []metaEntry
		for _, p := range parts {
			if e, ok := metaPair(p); ok {
				out = append(out, e)
			}
		}
		if len(out) > 1 {
			return out
		}
	}
	if e, ok := metaPair(s); ok {
		return []metaEntry{e}
	}
	return nil
}

// metaPair reads "**Depends On**: Phase 1" or "**Depends On:** Phase 1".
func metaPair(s string) (metaEntry, bool) {
	s = strings.TrimSpace(boldMarkup.Replace(s))
	key, value, ok := strings.Cut(s, ":")
	if !ok {
		return metaEntry{}, false
	}
	key = strings.TrimSpace(strings.Trim(key, "*_ \t"))
	if _, known := metaKeys[letters(key)]; !known || len(key) > 40 {
		return metaEntry{}, false
	}
	return metaEntry{key: key, value: strings.TrimSpace(value)}, true
}

// boldMarkup removes bold markers around keys ("**Depends On**:").
var boldMarkup = strings.NewReplacer("**", "", "__", "")
