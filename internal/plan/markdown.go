package plan

import (
	"bytes"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// doc is a plan's markdown parsed by goldmark (GFM tables and task lists),
// with a line index so every node can be located by line.
type doc struct {
	src        []byte
	lineStarts []int // byte offset of the start of each line
	root       ast.Node
	blocks     []ast.Node // the document's top-level blocks, in order
}

// newDoc parses src. Goldmark never fails: any input is some markdown.
func newDoc(src []byte) *doc {
	md := goldmark.New(goldmark.WithExtensions(extension.Table, extension.TaskList))
	d := &doc{src: src, root: md.Parser().Parse(text.NewReader(src))}
	d.lineStarts = append(d.lineStarts, 0)
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			d.lineStarts = append(d.lineStarts, i+1)
		}
	}
	for c := d.root.FirstChild(); c != nil; c = c.NextSibling() {
		d.blocks = append(d.blocks, c)
	}
	return d
}

// line is the 1-based line holding byte offset off (1 for unknown offsets).
func (d *doc) line(off int) int {
	if off < 0 {
		return 1
	}
	return sort.Search(len(d.lineStarts), func(i int) bool { return d.lineStarts[i] > off })
}

// lineStart is the offset of the start of the 1-based line n.
func (d *doc) lineStart(n int) int {
	if n < 1 {
		return 0
	}
	if n > len(d.lineStarts) {
		return len(d.src)
	}
	return d.lineStarts[n-1]
}

// lineText is the source of the 1-based line n, without its line break.
func (d *doc) lineText(n int) []byte {
	end := len(d.src)
	if n < len(d.lineStarts) {
		end = d.lineStarts[n]
	}
	return bytes.TrimRight(d.src[d.lineStart(n):end], "\r\n")
}

// nodeLine is the line where a block node starts.
func (d *doc) nodeLine(n ast.Node) int {
	if pos := n.Pos(); pos >= 0 {
		return d.line(pos)
	}
	if lines := n.Lines(); lines != nil && lines.Len() > 0 {
		return d.line(lines.At(0).Start)
	}
	if c := n.FirstChild(); c != nil && c.Type() == ast.TypeBlock {
		return d.nodeLine(c)
	}
	return 1
}

// plainText is the text of a node's inline content with the markdown
// removed: "**2A**" → "2A", "`cmd`" → "cmd", "[1](#p1)" → "1".
func (d *doc) plainText(n ast.Node) string {
	var b strings.Builder
	d.appendText(&b, n)
	return strings.TrimSpace(b.String())
}

func (d *doc) appendText(b *strings.Builder, n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(d.src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.AutoLink:
			b.Write(c.URL(d.src))
		case *ast.RawHTML:
			// A tag carries no text, but <br> in a table cell separates
			// items ("2A<br>2B"), so it stands for a space.
			b.WriteByte(' ')
		case *east.TaskCheckBox:
			// A checkbox carries no text.
		default:
			d.appendText(b, c)
		}
	}
}

// rawLine is one source line of a block's text, without container
// markers ("> ", "- "), with its line number.
type rawLine struct {
	text string
	line int
}

// rawLines lists the text lines of n and the blocks inside it, skipping
// code: metadata and gates are read from these.
func (d *doc) rawLines(n ast.Node) []rawLine {
	var out []rawLine
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || c.Type() != ast.TypeBlock {
			return ast.WalkContinue, nil
		}
		switch c.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			return ast.WalkSkipChildren, nil
		case *ast.Paragraph, *ast.TextBlock:
			lines := c.Lines()
			for i := range lines.Len() {
				seg := lines.At(i)
				out = append(out, rawLine{
					text: strings.TrimSpace(string(seg.Value(d.src))),
					line: d.line(seg.Start),
				})
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}

// verbatim is the source from the start of line `from` up to the start of
// line `to` (0: the end), without trailing blank lines but keeping the last
// line's own newline.
func (d *doc) verbatim(from, to int) string {
	start := d.lineStart(from)
	end := len(d.src)
	if to > 0 {
		end = d.lineStart(to)
	}
	if end < start {
		end = start
	}
	body := d.src[start:end]
	content := bytes.TrimRight(body, " \t\r\n")
	if nl := bytes.IndexByte(body[len(content):], '\n'); nl >= 0 {
		body = body[:len(content)+nl+1]
	}
	return string(body)
}
