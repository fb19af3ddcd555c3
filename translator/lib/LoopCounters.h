//===- LoopCounters.h - items counted with the counter of a loop ----------===//
//
// `x[b]` keeps its StarSs meaning in GPUSs: the b elements from x[0]. Where
// `b` is the counter of a `for` loop around a call-site task, a task block
// or a `wait on`, the writer almost surely meant element b, as in OmpSs:
// the directive then names other data than the program uses (none at
// b = 0). loopCounterExtent finds such items so that their directives can
// warn and suggest `x[b;1]` (TaskBuilder, SyncDirectives).
//
// Relies on NameLookup (the counter's declaration) and AnalysisContext.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_LOOPCOUNTERS_H
#define GPUSS_TRANSLATOR_LOOPCOUNTERS_H

#include "AnalysisContext.h"
#include "NameLookup.h"

namespace gpuss {

/// If `It` is `x[v]` (one extent, no shape, no `*`, no member) with `v` a
/// local or parameter that a `for` loop of S.Enclosing declares, assigns or
/// steps in its init or increment while its body holds the directive, the
/// spelling of `v`; otherwise empty.
std::string loopCounterExtent(AnalysisContext &AC, const NameResolver &Names, const NameScope &S,
                              const Item &It);

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_LOOPCOUNTERS_H
