package kernels

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/klauspost/cpuid/v2"
)

// Variant is a named set of kernels and the CPU features it needs.
type Variant struct {
	Name string
	// Requires lists the CPU features the variant's code uses.
	Requires []cpuid.FeatureID
	// Rank orders variants: the supported variant with the highest rank is
	// the default. generic has rank 0.
	Rank int
	Ops  Ops
	// Yield names ops whose default this variant leaves to the next
	// supported variant that has them — a lower tier measured faster for
	// that op on this CPU — with the measurement that says so (Info shows
	// it). A forced variant still runs its own kernels for every op.
	Yield map[string]string
}

// Supported reports whether this CPU has every feature v requires.
func (v *Variant) Supported() bool { return cpu.Supports(v.Requires...) }

// cpu is the feature set the registry checks against. Tests may not change
// it; it exists so the CPU is read once.
var cpu = &cpuid.CPU

// Errors of the registry, for errors.Is.
var (
	ErrUnknownVariant     = errors.New("unknown kernel variant")
	ErrUnsupportedVariant = errors.New("kernel variant not supported by this CPU")
	ErrDuplicateVariant   = errors.New("kernel variant already registered")
	ErrBadVariant         = errors.New("bad kernel variant")
)

// snapshot is an immutable view of the registry. Dispatch loads it with one
// atomic read; writers build a new one and publish it.
type snapshot struct {
	variants []*Variant // every registered variant, best (highest rank) first
	forced   string     // the variant forced by Use or CORELANE_KERNELS, or ""
	ops      Ops        // resolved: every field non-nil
	source   []string   // source[i]: the variant that provides op i
	reason   []string   // reason[i]: why
}

var (
	mu      sync.Mutex // serializes writers
	current atomic.Pointer[snapshot]
	// initErr records a bad CORELANE_KERNELS value (see InitErr).
	initErr error
)

func load() *snapshot { return current.Load() }

// Register adds a variant to the process-wide registry.
//
// Register is a test and tooling hook, not an engine API: it changes
// dispatch for every user of the process (the package-level functions,
// and every spi.Backend made afterwards without WithKernels). Engines pick
// kernels per Backend with spi.WithKernels and read kernels.Info(); nothing
// in this module outside tests calls Register.
//
// It is an error to register a name twice, a
// variant without a name, or one that implements no op. Registering never
// changes a forced choice; otherwise the best supported variant becomes the
// default.
func Register(v Variant) error {
	mu.Lock()
	defer mu.Unlock()
	return register(v)
}

func register(v Variant) error {
	if v.Name == "" {
		return fmt.Errorf("kernels: Register: %w: empty name", ErrBadVariant)
	}
	old := load()
	var vs []*Variant
	if old != nil {
		for _, o := range old.variants {
			if o.Name == v.Name {
				return fmt.Errorf("kernels: Register %q: %w", v.Name, ErrDuplicateVariant)
			}
		}
		vs = append(vs, old.variants...)
	}
	any := false
	for i := range opNames {
		if opHas(&v.Ops, i) {
			any = true
		}
	}
	if !any {
		return fmt.Errorf("kernels: Register %q: %w: it implements no op", v.Name, ErrBadVariant)
	}
	for op := range v.Yield {
		i := slices.Index(opNames, op)
		if i < 0 || !opHas(&v.Ops, i) {
			return fmt.Errorf("kernels: Register %q: %w: Yield names %q, not an op it implements", v.Name, ErrBadVariant, op)
		}
	}
	nv := v
	vs = append(vs, &nv)
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].Rank > vs[j].Rank })
	forced := ""
	if old != nil {
		forced = old.forced
	}
	current.Store(resolve(vs, forced))
	return nil
}

// resolve builds a snapshot: each op comes from the forced variant if it has
// it, else from the best supported variant that has it.
func resolve(vs []*Variant, forced string) *snapshot {
	s := &snapshot{variants: vs, forced: forced, source: make([]string, len(opNames)), reason: make([]string, len(opNames))}
	order := make([]*Variant, 0, len(vs)+1)
	if f := find(vs, forced); f != nil {
		order = append(order, f)
	}
	for _, v := range vs {
		if v.Supported() {
			order = append(order, v)
		}
	}
	for i, op := range opNames {
		var yielded []string // the variants passed over by their Yield
		for k, v := range order {
			if !opHas(&v.Ops, i) {
				continue
			}
			if why, ok := v.Yield[op]; ok && v.Name != forced && hasOpAfter(order[k+1:], i) {
				yielded = append(yielded, fmt.Sprintf("%s yields it (%s)", v.Name, why))
				continue
			}
			opList[i].copy(&s.ops, &v.Ops)
			s.source[i] = v.Name
			switch {
			case forced == "":
				s.reason[i] = "best supported variant with this op"
			case v.Name == forced:
				s.reason[i] = "forced"
			default:
				s.reason[i] = fmt.Sprintf("forced %s lacks this op; best supported variant with it", forced)
			}
			if len(yielded) > 0 {
				s.reason[i] += "; " + strings.Join(yielded, "; ")
			}
			break
		}
	}
	return s
}

// hasOpAfter reports whether any of vs implements op i.
func hasOpAfter(vs []*Variant, i int) bool {
	for _, v := range vs {
		if opHas(&v.Ops, i) {
			return true
		}
	}
	return false
}

func find(vs []*Variant, name string) *Variant {
	for _, v := range vs {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// Variants names the registered variants this CPU can run, best first.
func Variants() []string {
	var names []string
	for _, v := range load().variants {
		if v.Supported() {
			names = append(names, v.Name)
		}
	}
	return names
}

// Registered names every registered variant, supported or not, best first.
func Registered() []string {
	var names []string
	for _, v := range load().variants {
		names = append(names, v.Name)
	}
	return names
}

// Use is a test hook, not an engine API: it changes dispatch for the whole
// process (see Register); engines use spi.WithKernels, which pins one
// Backend and leaves everyone else alone. Nothing in this module outside
// tests calls it.
//
// Use forces the named variant for every op it implements (ops it lacks come
// from the best supported variant that has them, as Info shows). It returns
// a function that restores the previous choice. An unknown name, or a
// variant this CPU cannot run, is an error that lists what this CPU
// supports. Use("") returns to the default choice.
func Use(name string) (restore func(), err error) {
	mu.Lock()
	defer mu.Unlock()
	old := load()
	if err := check(old, name); err != nil {
		return func() {}, err
	}
	current.Store(resolve(old.variants, name))
	return func() {
		mu.Lock()
		defer mu.Unlock()
		cur := load()
		current.Store(resolve(cur.variants, old.forced))
	}, nil
}

func check(s *snapshot, name string) error {
	if name == "" {
		return nil
	}
	v := find(s.variants, name)
	if v == nil {
		return fmt.Errorf("kernels: %w %q; this CPU supports: %s", ErrUnknownVariant, name, strings.Join(Variants(), ", "))
	}
	if !v.Supported() {
		var missing []string
		for _, f := range v.Requires {
			if !cpu.Supports(f) {
				missing = append(missing, f.String())
			}
		}
		return fmt.Errorf("kernels: %w: %q needs %s; this CPU supports: %s", ErrUnsupportedVariant, name, strings.Join(missing, ", "), strings.Join(Variants(), ", "))
	}
	return nil
}

// Lookup returns the kernels Use(name) would select — the named variant's
// ops, the rest from the best supported variant — without changing the
// registry. Lookup("") returns the current choice. Unknown or unsupported
// names are errors, as for Use.
func Lookup(name string) (Ops, error) {
	s := load()
	if name == "" {
		return s.ops, nil
	}
	if err := check(s, name); err != nil {
		return Ops{}, err
	}
	return resolve(s.variants, name).ops, nil
}

// Forced returns the name of the forced variant, or "" when every op uses
// the best supported variant.
func Forced() string { return load().forced }

// InitErr returns the error from a bad CORELANE_KERNELS setting at start-up,
// or nil. Programs should check it (cmd/corelane does and exits).
func InitErr() error { return initErr }

func init() {
	mu.Lock()
	defer mu.Unlock()
	if err := register(genericVariant()); err != nil {
		panic(err) // a programming error in this package
	}
	for _, v := range archVariants() {
		if err := register(v); err != nil {
			panic(err)
		}
	}
	if name := os.Getenv("CORELANE_KERNELS"); name != "" {
		if err := check(load(), name); err != nil {
			initErr = fmt.Errorf("CORELANE_KERNELS=%s: %w", name, err)
			return
		}
		current.Store(resolve(load().variants, name))
	}
}
