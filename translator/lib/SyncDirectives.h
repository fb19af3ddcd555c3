//===- SyncDirectives.h - barrier, wait on, start and finish ---------------===//
//
// Owns the directives that are not tasks: `barrier` (and `taskwait`),
// `wait on(...)` (and `taskwait on(...)`), `start` and `finish`. Each must
// stand inside a function body, in the main file or one of the program's
// own headers (not a system header); it is replaced by its runtime call
// (CodeGen), `wait on` with the regions of its items (RegionBuilder: a
// pointer stored in an array is the data it points to). A directive made by
// a macro together with other code cannot be rewritten, and is reported.
// `wait on(x[i])` with `i` the counter of a loop around it is warned about
// (LoopCounters.h), and so is `wait on(rows[e])` over an array of arrays,
// which counts e rows where an SMPSs program meant row e (warnRowCount).
//
// Relies on NameLookup, RegionBuilder and AnalysisContext.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_SYNCDIRECTIVES_H
#define GPUSS_TRANSLATOR_SYNCDIRECTIVES_H

#include "AnalysisContext.h"
#include "NameLookup.h"
#include "RegionBuilder.h"

namespace gpuss {

class SyncDirectives {
public:
  SyncDirectives(AnalysisContext &AC, NameResolver &Names, RegionBuilder &Regions)
      : AC(AC), SM(AC.SM), Facts(AC.Facts), Plan(AC.Plan), Names(Names), Regions(Regions) {}

  /// Plans the replacement of a barrier, wait, start or finish directive.
  void handleSync(const ParsedDirective &P);

private:
  void warnRowCount(const NameScope &Scope, const Item &It, const BaseInfo &B);

  AnalysisContext &AC;
  clang::SourceManager &SM;
  const ASTFacts &Facts;
  EditPlan &Plan;
  NameResolver &Names;
  RegionBuilder &Regions;
};

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_SYNCDIRECTIVES_H
