package uci

import (
	"strings"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// Layout of the board picture: point (file f, rank r) is drawn at column
// 2+4f of row 2(7-r); the rank digit is in column 0 and the files are
// labelled on a last row.
const (
	pictureRows = 13
	pictureCols = 27
)

// cell returns the row and column of the point s in the picture.
func cell(s bb.Square) (row, col int) {
	l := s.String()
	return 2 * int('7'-l[1]), 2 + 4*int(l[0]-'a')
}

// boardPicture draws the position with the lines of its board (diagonals
// included when the rules have them), one string per row.
func boardPicture(r *rules.Rules, p *position.Position) []string {
	var grid [pictureRows][pictureCols]byte
	for i := range grid {
		for j := range grid[i] {
			grid[i][j] = ' '
		}
	}
	t := r.Topology()
	for a := bb.Square(0); a < bb.NumSquares; a++ {
		ra, ca := cell(a)
		for n := t.Adjacent[a]; n != 0; {
			b := n.PopFirst()
			if b < a {
				continue
			}
			rb, cb := cell(b)
			switch {
			case ra == rb:
				for c := min(ca, cb) + 1; c < max(ca, cb); c++ {
					grid[ra][c] = '-'
				}
			case ca == cb:
				for row := min(ra, rb) + 1; row < max(ra, rb); row++ {
					grid[row][ca] = '|'
				}
			default:
				ch := byte('/')
				if (rb-ra > 0) == (cb-ca > 0) {
					ch = '\\'
				}
				grid[(ra+rb)/2][(ca+cb)/2] = ch
			}
		}
		grid[ra][ca] = p.PointChar(a)
	}
	out := make([]string, 0, pictureRows+1)
	for i := range pictureRows {
		if i%2 == 0 {
			grid[i][0] = byte('7' - i/2)
		}
		out = append(out, strings.TrimRight(string(grid[i][:]), " "))
	}
	return append(out, "  a   b   c   d   e   f   g")
}
