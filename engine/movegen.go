package engine

// move is a candidate cell and its ordering value.
type move struct {
	cell  int32
	value int32
}

// threats summarises a scan of the candidate cells for the side to move.
type threats struct {
	myFive   int32 // a cell where the side to move wins, or -1
	oppFive  int32 // a cell where the opponent wins, or -1
	oppFives int   // how many such cells
	// oppFiveFoul: under renju, one of the opponent's winning cells is a
	// foul for Black to move, who therefore cannot stop it.
	oppFiveFoul bool
	myFlex      int32 // a cell where the side to move makes an unstoppable four, or -1
	oppFlex     bool  // the opponent has such a cell
	myFours     int   // cells where the side to move makes a four
	myThreats   int   // cells where the side to move makes a four or an open three
}

// noThreats returns the threats of a scan that has seen none yet.
func noThreats() threats {
	return threats{myFive: -1, oppFive: -1, myFlex: -1}
}

// scanBox returns the first and last column and row of the cells the scans
// look at: those within two of a stone, on the board.
func (p *pos) scanBox() (x0, x1, y0, y1 int) {
	return max(p.box[0], p.k), min(p.box[2], p.k+p.w-1), max(p.box[1], p.k), min(p.box[3], p.k+p.h-1)
}

// scan appends every empty cell within two of a stone to buf with its
// ordering value (attack plus defence) and reports the threats it saw. On
// an empty board it offers the centre. Under renju it leaves out Black's
// fouls when Black is to move, and does not count a foul as a threat of
// Black's when White is.
func (p *pos) scan(buf []move) ([]move, threats) {
	me, op := p.side, 3-p.side
	renjuMe, renjuOp := p.renju && me == cBlack, p.renju && op == cBlack
	th := noThreats()
	if len(p.stack) == 0 {
		return append(buf, move{int32(p.index(p.w/2, p.h/2)), 0}), th
	}
	x0, x1, y0, y1 := p.scanBox()
	for y := y0; y <= y1; y++ {
		for i := y*p.stride + x0; i <= y*p.stride+x1; i++ {
			if p.near[i] == 0 || p.cells[i] != cEmpty {
				continue
			}
			c := int32(i)
			ml, mv := p.level(i, me)
			foul := renjuMe && p.forbidden(i)
			if foul {
				ml = tNone
			}
			ol, ov := p.level(i, op)
			if renjuOp && ol == tFlex && p.forbidden(i) {
				ol = tNone
			}
			switch ml {
			case tFive:
				th.myFive = c
			case tFlex:
				th.myFlex = c
			}
			if ml >= tFour {
				th.myFours++
			}
			if ml >= tThree {
				th.myThreats++
			}
			switch ol {
			case tFive:
				th.oppFive = c
				th.oppFives++
				th.oppFiveFoul = th.oppFiveFoul || foul
			case tFlex:
				th.oppFlex = true
			}
			if !foul {
				buf = append(buf, move{c, mv + ov*7/8})
			}
		}
	}
	return buf, th
}

// scanFours is scan for the threat-space search by fours: it appends only
// the cells where the side to move makes a four or better, with the same
// ordering values, and fills in of threats the fives, the fours and the
// unstoppable fours of the side to move and the fives of the opponent.
func (p *pos) scanFours(buf []move) ([]move, threats) {
	me, op := p.side, 3-p.side
	renjuMe := p.renju && me == cBlack
	th := noThreats()
	if len(p.stack) == 0 {
		return buf, th
	}
	// The counts of cells by threat level (fouls included) say how many
	// cells the scan is looking for; it stops at the last.
	mf, of := &p.levels[me-1], &p.levels[op-1]
	left := mf.fours() + mf[tFlex] + mf[tFive] + of[tFive]
	x0, x1, y0, y1 := p.scanBox()
	for y := y0; y <= y1 && left != 0; y++ {
		for i := y*p.stride + x0; i <= y*p.stride+x1 && left != 0; i++ {
			if p.near[i] == 0 || p.cells[i] != cEmpty {
				continue
			}
			ml, mv := p.level(i, me)
			ol, ov := p.level(i, op)
			if ml < tFour && ol != tFive {
				continue
			}
			if ml >= tFour {
				left--
			}
			if ol == tFive {
				left--
			}
			c := int32(i)
			foul := renjuMe && p.forbidden(i)
			if ol == tFive {
				th.oppFive = c
				th.oppFives++
				th.oppFiveFoul = th.oppFiveFoul || foul
			}
			if foul || ml < tFour {
				continue
			}
			switch ml {
			case tFive:
				th.myFive = c
			case tFlex:
				th.myFlex = c
			}
			th.myFours++
			buf = append(buf, move{c, mv + ov*7/8})
		}
	}
	return buf, th
}

// defences keeps from ms the moves that answer an opponent's open three or
// four-to-be: the side to move's own fours and the cells where the
// opponent would make a four or better.
func (p *pos) defences(ms []move) []move {
	me, op := p.side, 3-p.side
	out := ms[:0]
	for _, m := range ms {
		i := int(m.cell)
		if l, _ := p.level(i, me); l >= tFour {
			out = append(out, m)
			continue
		}
		ps := &p.pat[op-1][i]
		if max(ps[0], ps[1], ps[2], ps[3]) >= patFour {
			out = append(out, m)
		}
	}
	return out
}

// sortMoves orders ms by value, highest first (insertion sort: the lists
// are short and mostly small).
func sortMoves(ms []move) {
	for i := 1; i < len(ms); i++ {
		m := ms[i]
		j := i
		for j > 0 && ms[j-1].value < m.value {
			ms[j] = ms[j-1]
			j--
		}
		ms[j] = m
	}
}
