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

/// One `[...]` of an item.
struct Dimension {
  enum Kind {
    Extent, ///< [e]: e elements, starting at the first
    Length, ///< [lo;len]: len elements from lo
    Range   ///< [lo:hi]: lo to hi inclusive
  };
  Kind K = Extent;
  ExprText First;  ///< e, or lo
  ExprText Second; ///< len or hi; empty for Extent
  unsigned Offset = 0;
};

/// `name`, `name[e1][e2]`, `name[lo;len]`, `name[lo:hi]`.
struct Item {
  std::string Name;
  unsigned Offset = 0;
  std::vector<Dimension> Dims;
  std::string Text; ///< the whole item, whitespace removed (used to match items)
  bool hasSection() const {
    for (const Dimension &D : Dims)
      if (D.K != Dimension::Extent) return true;
    return false;
  }
};

enum class ClauseKind { Input, Output, Inout, HighPriority, Device, CopyIn, CopyOut, CopyInout, On };

enum class DeviceKind { Smp, Cuda };

struct Clause {
  ClauseKind Kind = ClauseKind::Input;
  unsigned Offset = 0;
  std::vector<Item> Items;             ///< data clauses, copy clauses, on(...)
  DeviceKind Device = DeviceKind::Smp; ///< device(...)
};

/// `task [input(...)] [output(...)] [inout(...)] [highpriority]`
struct TaskDirective {
  std::vector<Clause> Clauses; ///< Input, Output, Inout and HighPriority clauses
  bool HighPriority = false;
};

/// `target device(cuda|smp) [copy_in(...)] [copy_out(...)] [copy_inout(...)]`
struct TargetDirective {
  DeviceKind Device = DeviceKind::Smp;
  std::vector<Clause> Copies; ///< CopyIn, CopyOut and CopyInout clauses
};

/// `wait on(...)`
struct WaitDirective {
  std::vector<Item> Items;
};

enum class DirectiveKind { Task, Target, Barrier, Wait, Start, Finish };

struct Directive {
  DirectiveKind Kind = DirectiveKind::Barrier;
  unsigned Offset = 0;
  TaskDirective Task;
  TargetDirective Target;
  WaitDirective Wait;
};

const char *directiveName(DirectiveKind K);
const char *clauseName(ClauseKind K);

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_DIRECTIVE_H
