package state

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// Bounds of FileID's results.
const (
	maxFileIDLen   = 64 // an id longer than this is shortened and hashed
	fileIDPrefix   = 40 // the readable part kept in front of the hash
	fileIDHashHex  = 10 // hex digits of the hash suffix
	hashSeparator  = "__"
	emptyIDReplace = "id"
)

// FileID is a phase id made safe for file names and git branch names: the
// form of the id that names the phase's files, worktree and branch. It is
// one-way (FileIDOf); a name read back gives a FileID, which only a phase
// id's FileIDOf can be matched with, never the id itself.
type FileID string

// FileIDOf turns a phase id into its FileID.
//
// An id made only of [a-z0-9._-], at most 64 bytes, is kept as it is,
// unless it could be unsafe or ambiguous: empty, starting or ending with a
// dot, holding "..", ending in ".lock" (git refuses such refs), or holding
// "__". Any other id becomes a readable prefix (lowercased, other characters
// replaced by '_') followed by "__" and a hash of the whole id. Kept ids
// never contain "__" and changed ones always end in "__<hash>", so two
// different ids never share a FileID (short of a hash collision).
func FileIDOf(pid phaseid.ID) FileID {
	id := string(pid) // The file name is made from the id's text.
	if keepsAsIs(id) {
		return FileID(id)
	}
	var b strings.Builder
	for _, r := range id {
		if b.Len() >= fileIDPrefix {
			break
		}
		switch {
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + ('a' - 'A'))
		case r == '.':
			// A leading dot hides the file; ".." is a path and a bad ref.
			if s := b.String(); s == "" || strings.HasSuffix(s, ".") {
				b.WriteByte('_')
			} else {
				b.WriteByte('.')
			}
		case allowedFileIDRune(r):
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	prefix := b.String()
	if prefix == "" {
		prefix = emptyIDReplace
	}
	sum := sha256.Sum256([]byte(id))
	return FileID(prefix + hashSeparator + hex.EncodeToString(sum[:])[:fileIDHashHex])
}

// keepsAsIs reports whether id is already a safe, unambiguous FileID.
func keepsAsIs(id string) bool {
	if id == "" || len(id) > maxFileIDLen || strings.HasPrefix(id, ".") || strings.HasSuffix(id, ".") ||
		strings.Contains(id, "..") || strings.HasSuffix(id, ".lock") || strings.Contains(id, hashSeparator) {
		return false
	}
	for _, r := range id {
		if !allowedFileIDRune(r) {
			return false
		}
	}
	return true
}

func allowedFileIDRune(r rune) bool {
	return (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '.' || r == '_' || r == '-'
}
