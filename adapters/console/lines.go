package console

import (
	"bufio"
	"errors"
	"io"
)

// maxLine is how many bytes of one input line the terminal keeps: far
// more than any command (adapters.MaxCommandLen), little enough that a
// pasted megabyte costs nothing.
const maxLine = 4 << 10

// lineReader reads lines of at most maxLine bytes. The rest of a longer
// line is read and dropped without being held, and the line is reported
// as too long, so one overlong line neither stops the program nor costs
// memory in proportion to its length.
type lineReader struct {
	r *bufio.Reader
}

// newLineReader returns a lineReader of in.
func newLineReader(in io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(in, maxLine)}
}

// next returns the next line without its end ("\n" or "\r\n"), and
// whether it was longer than maxLine (its text is then its first maxLine
// bytes). A last line without a newline is a line. At the end of input
// it returns io.EOF; any other read error is returned as it is.
func (l *lineReader) next() (line string, tooLong bool, err error) {
	b, err := l.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		line, tooLong = string(b), true
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = l.r.ReadSlice('\n')
		}
		if err == io.EOF {
			err = nil
		}
		return line, tooLong, err
	}
	if err == io.EOF && len(b) > 0 {
		err = nil
	}
	if err != nil {
		return "", false, err
	}
	return trimEOL(string(b)), false, nil
}

// trimEOL drops a line's "\n" or "\r\n".
func trimEOL(s string) string {
	if n := len(s); n > 0 && s[n-1] == '\n' {
		s = s[:n-1]
	}
	if n := len(s); n > 0 && s[n-1] == '\r' {
		s = s[:n-1]
	}
	return s
}
