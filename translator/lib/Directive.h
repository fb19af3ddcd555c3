//===- Directive.h - The directive AST of the css pragma language ---------===//
//
// Plain data: what one `#pragma css ...` line says, before any name in it is
// resolved. Offsets count bytes into the directive text that was parsed, so
// the caller can turn them into source locations.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_DIRECTIVE_H
#define GPUSS_TRANSLATOR_DIRECTIVE_H

#include <string>
#include <vector>

namespace gpuss {

/// An identifier inside a C expression that must name something visible.
struct ExprName {
  std::string Name;
  unsigned Offset = 0;
};

/// A C expression kept as text (copied verbatim into the generated code).
struct ExprText {
  std::string Text;
  unsigned Offset = 0;
  std::vector<ExprName> Names;
};

/// One `[...]` or `{...}` of an item.
struct Dimension {
  enum Kind {
    Extent, ///< [e]: e elements, starting at the first (after a shape: element e)
    Length, ///< [lo;len] or {lo:len}: len elements from lo
    Range,  ///< [lo:hi] or {lo..hi}: lo to hi inclusive
    Whole,  ///< {}: the whole dimension
    Index   ///< {i}: element i
  };
  Kind K = Extent;
  ExprText First;  ///< e, lo or i; empty for Whole
  ExprText Second; ///< len or hi; empty for Extent, Whole and Index
  unsigned Offset = 0;
};

/// `.m` or `->m` after an item's name: a pointer member of a struct.
struct MemberStep {
  bool Arrow = false; ///< `->m` (else `.m`)
  std::string Name;
  unsigned Offset = 0; ///< of the member's name
};

/// `name`, `name[e1][e2]`, `name[lo;len]`, `name[lo:hi]` (StarSs, OmpSs
/// sections); `[e1][e2]name` and `[e1]name[lo;len]` (OmpSs shaping
/// expressions); `name{lo:len}`, `name{lo..hi}`, `name{}`, `name{i}` (SMPSs
/// 2.x regions, one `{...}` per dimension); `*name` and `*name[i]...` (OmpSs:
/// the object a pointer points to, `[i]` being C subscripts); `s.m[...]`,
/// `p->m[...]` (the data a pointer member points to).
struct Item {
  std::string Name;
  unsigned Offset = 0;             ///< of the name
  unsigned Begin = 0;              ///< of the item's first token (its shape, if any)
  bool Deref = false;              ///< `*name...`: Dims are C subscripts
  std::vector<MemberStep> Members; ///< `.m` / `->m` after the name
  std::vector<ExprText> Shape;     ///< [e1][e2] before the name
  std::vector<Dimension> Dims;     ///< [...] after the name
  std::vector<Dimension> Regions;  ///< {...} after the name
  std::string Text;                ///< the whole item, whitespace removed (used to match items)
  std::vector<std::string> Tokens; ///< the item's tokens (to compare items of two directives)
  bool hasSection() const {
    for (const Dimension &D : Dims)
      if (D.K != Dimension::Extent) return true;
    return false;
  }
  /// Plain StarSs form: no shape and no `{...}`.
  bool isClassic() const { return Shape.empty() && Regions.empty(); }
  /// `x[e]`, one count after a plain name: the form whose StarSs meaning (e
  /// elements) other languages read as element e.
  bool isSingleCount() const {
    return isClassic() && !Deref && Members.empty() && Dims.size() == 1 && Dims[0].K == Dimension::Extent;
  }
  /// The base as written: `name`, `s.m`, `p->m`.
  std::string baseText() const {
    std::string S = Name;
    for (const MemberStep &M : Members)
      S += (M.Arrow ? "->" : ".") + M.Name;
    return S;
  }
};

enum class ClauseKind {
  Input,
  Output,
  Inout,
  HighPriority,
  Priority,
  Final,
  If,
  Label,
  Device,
  CopyIn,
  CopyOut,
  CopyInout,
  On
};

enum class DeviceKind { Smp, Cuda };

struct Clause {
  ClauseKind Kind = ClauseKind::Input;
  unsigned Offset = 0;
  std::vector<Item> Items;             ///< data clauses, copy clauses, on(...)
  DeviceKind Device = DeviceKind::Smp; ///< device(...)
};

/// `target device(cuda|smp) [copy_in(...)] [copy_out(...)] [copy_inout(...)]`
struct TargetDirective {
  DeviceKind Device = DeviceKind::Smp;
  std::vector<Clause> Copies; ///< CopyIn, CopyOut and CopyInout clauses
};

/// A variable an OpenMP data-sharing clause names.
struct SharedName {
  std::string Name;
  unsigned Offset = 0;
};

/// OpenMP's data-sharing clauses on a task: `shared(x)`, `firstprivate(n)`,
/// `private(t)`, `default(...)`. They only mean something for a task block
/// (a statement after the directive), whose variables the outlined task
/// reaches in place (shared), copies (firstprivate, the default) or has
/// its own uninitialised one of (private). A task function's arguments
/// are always copied at the call.
struct DataSharing {
  std::vector<SharedName> Shared;
  std::vector<SharedName> FirstPrivate;
  std::vector<SharedName> Private;
  bool DefaultShared = false; ///< default(shared)
  bool DefaultNone = false;   ///< default(none): every variable the block uses must be named
  std::string FirstClause;    ///< the first of these clauses, for messages; empty if none
  unsigned FirstOffset = 0;
  bool any() const { return !FirstClause.empty(); }
};

/// `task [input(...)] [output(...)] [inout(...)] [highpriority]
/// [priority(e)] [label(name)] [target device(...) [copy_...(...)]]`
struct TaskDirective {
  std::vector<Clause> Clauses; ///< Input, Output, Inout, HighPriority, Priority and Label clauses
  bool HighPriority = false;
  bool HasPriority = false; ///< priority(e): high priority when e > 0 at the call
  ExprText Priority;
  bool HasFinal = false; ///< final(e): when e is true at the call, the tasks its body calls run inline
  ExprText Final;
  bool HasIf = false; ///< if(e): when e is false at the call, the call returns once the task has run
  ExprText If;
  std::string Label; ///< label(name), or empty
  DataSharing Sharing;
  /// `target ...` written inside the task directive.
  bool HasTarget = false;
  unsigned TargetOffset = 0;
  TargetDirective Target;
};

/// `wait on(...)`, `taskwait on(...)`
struct WaitDirective {
  std::vector<Item> Items;
};

/// OpenMP constructs that OmpSs programs put around and inside their tasks
/// (`#pragma omp` only): a critical or atomic construct (its statement runs
/// under a process-wide lock), or a construct whose end is a barrier
/// (parallel, single, for, sections, scope, taskgroup, taskloop), after which
/// the program may read what the tasks made inside wrote.
struct OmpConstruct {
  std::string Spelled;     ///< the construct's words, e.g. "parallel for", "critical"
  std::string LockName;    ///< Critical: the name, "" unnamed, "<atomic>" for atomic
  bool WaitsAtEnd = false; ///< Region: no nowait (or nogroup) clause
};

/// `taskwait` is read as `barrier`, `taskwait on(...)` as `wait on(...)`.
/// Critical and Region come only from `#pragma omp`.
enum class DirectiveKind { Task, Target, Barrier, Wait, Start, Finish, Critical, Region };

struct Directive {
  DirectiveKind Kind = DirectiveKind::Barrier;
  unsigned Offset = 0;
  TaskDirective Task;
  TargetDirective Target;
  WaitDirective Wait;
  OmpConstruct Omp;
};

/// Which pragma namespace a directive was written in: `#pragma css`
/// (StarSs, SMPSs, GPUSs) or `#pragma omp` (OmpSs, whose task clauses are
/// the same).
enum class PragmaDialect { Css, Omp };
const char *dialectName(PragmaDialect D);

const char *directiveName(DirectiveKind K);
const char *clauseName(ClauseKind K);

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_DIRECTIVE_H
