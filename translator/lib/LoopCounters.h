//===- LoopCounters.h - items counted with the counter of a loop ----------===//
//
// `x[b]` keeps its StarSs meaning in GPUSs: the b elements from x[0]. Where
// `b` is the counter of a `for` loop around a call-site task, a task block
// or a `wait on`, the writer almost surely meant element b, as in OmpSs:
// the directive then names other data than the program uses (none at
// b = 0). warnLoopCounterExtent finds such items and warns, suggesting
// `x[b;1]` (TaskBuilder, SyncDirectives).
//
// Relies on NameLookup (the counter's declaration) and AnalysisContext.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_LOOPCOUNTERS_H
#define GPUSS_TRANSLATOR_LOOPCOUNTERS_H

#include "AnalysisContext.h"
#include "NameLookup.h"

namespace gpuss {

/// Where the directive stands: a wait waits for the item's data, a task
/// (call site or block) names it.
enum class LoopCounterUse { Wait, Task };

/// Warns at `It` (an item of the directive S.Raw) if it is `x[v]` (one
/// extent, no shape, no `*`, no member) with `v` a local or parameter that a
/// `for` loop of S.Enclosing declares, assigns or steps in its init or
/// increment while its body holds the directive; returns whether it warned.
bool warnLoopCounterExtent(AnalysisContext &AC, const NameResolver &Names, const NameScope &S, const Item &It,
                           LoopCounterUse Use);

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_LOOPCOUNTERS_H
