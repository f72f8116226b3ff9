package sched

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

// LoopScheduler hands out the pieces of a loop to threads, as in DotMP.
// LoopInit is called once per loop, before any LoopNext; LoopNext is then
// called concurrently for different threads, until it returns start >= end
// for that thread. Pool.For never calls LoopNext for the same thread from
// two goroutines at once, and calls it for every thread in [0, threads),
// taking over the thread ids of helpers that never started, so a scheduler
// may give a thread work that only that thread id can claim.
//
// Every index of [start, end) must be handed out exactly once, in pieces
// that do not overlap. A LoopScheduler holds one loop's state: use one value
// per loop running at a time.
type LoopScheduler interface {
	LoopInit(start, end, threads, chunk int)
	LoopNext(thread int) (start, end int)
}

// ErrChunk is returned by For for a chunk below 1.
var ErrChunk = errors.New("sched: chunk must be at least 1")

// ErrSchedule is wrapped by Runtime and ParseSchedule errors.
var ErrSchedule = errors.New("sched: bad loop schedule")

// For runs body(i) for every i in [start, end) in the pieces ls hands out,
// on up to Parallelism() threads (fewer when there are fewer pieces of chunk
// indices). The calling goroutine is thread 0, and claims pieces as any
// thread does; pieces meant for a helper that has not started when the
// caller runs out are claimed by the caller under that helper's thread id.
// A loop of one piece, or one entered while the pool is closed or any
// pool's region holds the cores, runs inline with LoopInit(start, end, 1,
// chunk). A chunk below 1 is an error (ErrChunk), as is a nil ls;
// start >= end is an empty loop. A panic in body is re-raised as for
// ForRange (a *PanicError), not returned.
func (p *Pool) For(start, end int, ls LoopScheduler, chunk int, body func(i int)) error {
	return p.loop(start, end, ls, chunk, body, nil)
}

func (p *Pool) loop(start, end int, ls LoopScheduler, chunk int, body func(i int), extra func(Event)) error {
	if chunk < 1 {
		return fmt.Errorf("sched: For(%d, %d, %s, chunk %d): %w", start, end, schedulerName(ls), chunk, ErrChunk)
	}
	if ls == nil {
		return errors.New("sched: For with a nil LoopScheduler")
	}
	if start >= end {
		return nil
	}
	tasks := p.par
	if pieces := makeSpan(start, end, uint64(chunk)).pieces; pieces < uint64(tasks) {
		tasks = int(pieces)
	}
	var name string // for events only
	if p.sink != nil || extra != nil {
		name = "For(" + schedulerName(ls) + ")"
	}
	all := func() int { return drain(ls, start, end, chunk, body) }
	if tasks == 1 {
		p.inline(name, 1, nil, extra, all)
		return nil
	}
	if ok, holder := p.acquire(); !ok {
		p.inline(name, tasks, holder, extra, all)
		return nil
	}
	r := &p.reg
	r.kind, r.ls, r.each = kindLoop, ls, body
	p.loopInit(r, start, end, tasks, chunk)
	p.run(r, tasks, extra)
	return nil
}

// loopInit calls LoopInit for a region holding the machine; if it panics
// (it is the caller's code), the machine is released before the panic
// goes on, so later regions are not kept inline.
func (p *Pool) loopInit(r *region, start, end, tasks, chunk int) {
	ok := false
	defer func() {
		if !ok {
			r.ls, r.each = nil, nil
			p.release()
		}
	}()
	r.ls.LoopInit(start, end, tasks, chunk)
	ok = true
}

// drain runs a whole loop as thread 0 of 1 and returns how many pieces ran.
func drain(ls LoopScheduler, start, end, chunk int, body func(i int)) (pieces int) {
	ls.LoopInit(start, end, 1, chunk)
	for {
		s, e := ls.LoopNext(0)
		if s >= e {
			return pieces
		}
		pieces++
		for i := s; i < e; i++ {
			body(i)
		}
	}
}

func schedulerName(ls LoopScheduler) string {
	if s, ok := ls.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%T", ls)
}

// span is [start, end) cut into pieces of chunk indices. Lengths and offsets
// are uint64, so a loop may run from math.MinInt to math.MaxInt without
// overflow; start+int(offset) wraps back into range in two's complement.
type span struct {
	start, end int
	length     uint64 // end - start
	chunk      uint64
	pieces     uint64 // ceil(length / chunk)
}

func makeSpan(start, end int, chunk uint64) span {
	if end <= start {
		return span{start: start, end: start}
	}
	chunk = max(chunk, 1)
	length := uint64(end) - uint64(start)
	return span{start: start, end: end, length: length, chunk: chunk, pieces: (length-1)/chunk + 1}
}

// piece returns piece k < pieces: [start + k*chunk, min(start + (k+1)*chunk, end)).
func (s *span) piece(k uint64) (start, end int) {
	off := k * s.chunk // <= length-1, since k < pieces
	lo := s.start + int(off)
	if s.length-off > s.chunk {
		return lo, lo + int(s.chunk)
	}
	return lo, s.end
}

// out is LoopNext's answer when a thread has no more work.
func (s *span) out() (int, int) { return s.end, s.end }

func loopArgs(threads, chunk int) (int, uint64) {
	return max(threads, 1), uint64(max(chunk, 1))
}

// ---- static ----

type static struct {
	sp         span
	threads    uint64
	contiguous bool
	seats      []staticSeat
}

type staticSeat struct {
	next  atomic.Uint64 // pieces of this seat claimed so far
	count uint64        // pieces this seat owns
	_     cacheLinePad
}

// Static returns DotMP's static scheduler: the loop is cut into pieces of
// chunk indices, and thread t of T runs pieces t, t+T, t+2T, … (round robin),
// so piece k = [start + k·chunk, start + (k+1)·chunk) belongs to thread
// k mod T whatever the timing. With chunk >= ceil((end-start)/T) that is one
// fixed contiguous block per thread, which is what Runtime returns for
// "static" without a chunk. Static balances nothing: on a loop whose cost
// grows with i, contiguous blocks reach ~65% of ideal on 2 threads.
func Static() LoopScheduler { return &static{} }

// staticBlocks is Static with the chunk fixed at ceil((end-start)/threads):
// one contiguous block per thread, whatever chunk LoopInit is given.
func staticBlocks() LoopScheduler { return &static{contiguous: true} }

func (s *static) LoopInit(start, end, threads, chunk int) {
	t, c := loopArgs(threads, chunk)
	if s.contiguous && end > start {
		length := uint64(end) - uint64(start)
		c = (length-1)/uint64(t) + 1
	}
	s.sp = makeSpan(start, end, c)
	s.threads = uint64(t)
	if cap(s.seats) < t {
		s.seats = make([]staticSeat, t)
	}
	s.seats = s.seats[:t]
	for i := range s.seats {
		count := s.sp.pieces / s.threads
		if uint64(i) < s.sp.pieces%s.threads {
			count++
		}
		s.seats[i].count = count
		s.seats[i].next.Store(0)
	}
}

func (s *static) LoopNext(thread int) (int, int) {
	seat := &s.seats[thread]
	r := seat.next.Add(1) - 1
	if r >= seat.count {
		return s.sp.out()
	}
	return s.sp.piece(uint64(thread) + r*s.threads) // < pieces: no overflow
}

func (s *static) String() string { return "static" }

// ---- dynamic ----

type dynamic struct {
	sp   span
	_    cacheLinePad
	next atomic.Uint64
	_    cacheLinePad
}

// Dynamic returns DotMP's dynamic scheduler: one shared atomic counter hands
// out pieces of chunk indices in order, piece k = [start + k·chunk,
// min(start + (k+1)·chunk, end)) going to whichever thread asks next. One
// atomic add per piece; with chunk 1 on cheap iterations that add, bouncing
// between cores, costs more than the work.
//
// The counter counts pieces, not indices, so it cannot overflow near the
// int limits: it passes the piece count only by the number of threads
// asking after the end.
func Dynamic() LoopScheduler { return &dynamic{} }

func (d *dynamic) LoopInit(start, end, threads, chunk int) {
	_, c := loopArgs(threads, chunk)
	d.sp = makeSpan(start, end, c)
	d.next.Store(0)
}

func (d *dynamic) LoopNext(int) (int, int) {
	k := d.next.Add(1) - 1
	if k >= d.sp.pieces {
		return d.sp.out()
	}
	return d.sp.piece(k)
}

func (d *dynamic) String() string { return "dynamic" }

// ---- guided ----

type guided struct {
	start, end int
	bounds     []uint64 // piece k is [start + bounds[k], start + bounds[k+1])
	_          cacheLinePad
	next       atomic.Uint64
	_          cacheLinePad
}

// Guided returns a guided scheduler with libgomp's formula: each piece takes
// q = max(ceil(remaining/threads), chunk) of the remaining indices (or all of
// them when fewer remain), so pieces start large and shrink toward chunk.
//
// DotMP's guided uses remaining/(2·threads) instead. This package follows
// libgomp (and so OpenMP as most C code meets it): it halves the number of
// claims on 2 cores, and the extra balance of the smaller pieces is already
// given by the chunk-sized tail. The sequence of pieces depends only on
// (start, end, threads, chunk), never on timing, so LoopInit computes it once
// (O(threads·log(n/chunk)) pieces) and LoopNext claims piece k with one
// atomic add instead of a compare-and-swap loop.
func Guided() LoopScheduler { return &guided{} }

func (g *guided) LoopInit(start, end, threads, chunk int) {
	t, c := loopArgs(threads, chunk)
	sp := makeSpan(start, end, c)
	g.start, g.end = start, sp.end
	g.bounds = append(g.bounds[:0], 0)
	var off uint64
	for rem := sp.length; rem > 0; {
		q := (rem-1)/uint64(t) + 1 // ceil(rem/t) without overflow
		q = min(max(q, c), rem)
		off += q
		rem -= q
		g.bounds = append(g.bounds, off)
	}
	g.next.Store(0)
}

func (g *guided) LoopNext(int) (int, int) {
	k := g.next.Add(1) - 1
	if k+1 >= uint64(len(g.bounds)) {
		return g.end, g.end
	}
	return g.start + int(g.bounds[k]), g.start + int(g.bounds[k+1])
}

func (g *guided) String() string { return "guided" }

// ---- work stealing ----

type workStealing struct {
	sp      span
	threads int
	seats   []wsSeat
}

type wsSeat struct {
	// taken packs two counters so one atomic add claims a piece: the low 32
	// bits count pieces the owner took from the front, the high 32 bits
	// pieces thieves took from the back. A claim that sees front+back <
	// count owns its piece; after the first failed claim all fail.
	taken       atomic.Uint64
	base, count uint64 // this seat owns pieces [base, base+count)
	ownDone     bool   // owner only: own pieces exhausted
	victim      int    // owner only: next seat offset to steal from
	_           cacheLinePad
}

// maxSeatPieces keeps each packed counter below 2^31 with room for the
// failed claims (one per thread) that may follow the last piece.
const maxSeatPieces = 1 << 30

// WorkStealing returns a work-stealing scheduler: the pieces of chunk
// indices are split into one contiguous block per thread (thread t owns
// pieces [t·P/T, (t+1)·P/T) of P, as Static without a chunk), each thread
// takes pieces from the front of its own block, and a thread whose block is
// empty steals single pieces from the back of the others' blocks, trying
// threads t+1, t+2, … in turn. Owner and thieves claim with one atomic add
// on a packed counter. (DotMP's thief takes half of a random victim's
// remaining work under a lock; stealing one piece from the far end keeps
// each claim a single atomic and leaves the owner its cache-warm front.)
// Where a thread would own more than 2^30 pieces, pieces grow beyond chunk
// so the packed counters cannot overflow.
func WorkStealing() LoopScheduler { return &workStealing{} }

func (w *workStealing) LoopInit(start, end, threads, chunk int) {
	t, c := loopArgs(threads, chunk)
	sp := makeSpan(start, end, c)
	if sp.pieces/uint64(t) >= maxSeatPieces {
		c = max(c, (sp.length-1)/(uint64(t)*maxSeatPieces/2)+1)
		sp = makeSpan(start, end, c)
	}
	w.sp, w.threads = sp, t
	if cap(w.seats) < t {
		w.seats = make([]wsSeat, t)
	}
	w.seats = w.seats[:t]
	q, rem := sp.pieces/uint64(t), sp.pieces%uint64(t)
	for i := range w.seats {
		s := &w.seats[i]
		s.base = uint64(i)*q + min(uint64(i), rem)
		s.count = q
		if uint64(i) < rem {
			s.count++
		}
		s.taken.Store(0)
		s.ownDone, s.victim = false, 1
	}
}

func (w *workStealing) LoopNext(thread int) (int, int) {
	s := &w.seats[thread]
	if !s.ownDone {
		old := s.taken.Add(1) - 1
		front, back := old&(1<<32-1), old>>32
		if front+back < s.count {
			return w.sp.piece(s.base + front)
		}
		s.ownDone = true
	}
	for ; s.victim < w.threads; s.victim++ {
		v := &w.seats[(thread+s.victim)%w.threads]
		old := v.taken.Add(1<<32) - 1<<32
		front, back := old&(1<<32-1), old>>32
		if front+back < v.count {
			return w.sp.piece(v.base + v.count - 1 - back)
		}
	}
	return w.sp.out()
}

func (w *workStealing) String() string { return "workstealing" }

// ---- runtime ----

// ScheduleEnv names the environment variable Runtime reads.
const ScheduleEnv = "CORELANE_SCHEDULE"

// Runtime returns the loop scheduler and chunk named by CORELANE_SCHEDULE,
// "kind[,chunk]" as OpenMP's OMP_SCHEDULE (see ParseSchedule). Unset or
// empty, it returns static contiguous blocks (DotMP's default) and chunk 1.
// A value it cannot parse is an error that names the value; there is no
// silent fallback.
func Runtime() (LoopScheduler, int, error) {
	v := os.Getenv(ScheduleEnv)
	if strings.TrimSpace(v) == "" {
		return staticBlocks(), 1, nil
	}
	ls, chunk, err := ParseSchedule(v)
	if err != nil {
		return nil, 0, fmt.Errorf("%s=%q: %w", ScheduleEnv, v, err)
	}
	return ls, chunk, nil
}

// ParseSchedule parses "kind[,chunk]": kind is static, dynamic, guided or
// workstealing (case-insensitive, "work-stealing" accepted), chunk a positive
// integer. Without a chunk, static means one contiguous block per thread
// and the others use chunk 1 (OpenMP's defaults). Errors wrap ErrSchedule
// and quote the offending part.
func ParseSchedule(s string) (LoopScheduler, int, error) {
	kind, chunkText, hasChunk := strings.Cut(s, ",")
	kind = strings.ToLower(strings.TrimSpace(kind))
	chunk := 1
	if hasChunk {
		c, err := strconv.Atoi(strings.TrimSpace(chunkText))
		if err != nil || c < 1 {
			return nil, 0, fmt.Errorf("%w: chunk %q is not a positive integer", ErrSchedule, chunkText)
		}
		chunk = c
	}
	switch kind {
	case "static":
		if !hasChunk {
			return staticBlocks(), chunk, nil
		}
		return Static(), chunk, nil
	case "dynamic":
		return Dynamic(), chunk, nil
	case "guided":
		return Guided(), chunk, nil
	case "workstealing", "work-stealing":
		return WorkStealing(), chunk, nil
	}
	return nil, 0, fmt.Errorf("%w: unknown kind %q (want static, dynamic, guided or workstealing)", ErrSchedule, kind)
}
