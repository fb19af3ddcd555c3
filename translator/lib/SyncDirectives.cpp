//===- SyncDirectives.cpp - barrier, wait on, start and finish -------------===//
#include "SyncDirectives.h"

#include "CodeGen.h"
#include "LoopCounters.h"

namespace gpuss {

using clang::SourceLocation;

void SyncDirectives::handleSync(const ParsedDirective &P) {
  const RawDirective &R = *P.Raw;
  if (!AC.translatable(AC.fileLoc(R.Begin))) {
    if (AC.functionAround(R.Begin) || SM.isInSystemHeader(AC.fileLoc(R.Begin)))
      AC.error(
          R.NameLoc,
          "'#pragma css %0' in a system header cannot be translated: the translator rewrites the main file "
          "and the program's own headers; include this header with -I or \"...\" instead of -isystem",
          directiveName(P.D.Kind));
    return;
  }
  const clang::FunctionDecl *FD = AC.functionAround(R.Begin);
  if (!FD) {
    AC.error(R.NameLoc,
             "'#pragma css %0' must be inside a function body: it stands where a statement may stand",
             directiveName(P.D.Kind));
    return;
  }
  std::string Code;
  switch (P.D.Kind) {
  case DirectiveKind::Barrier:
    Code = genBarrier();
    break;
  case DirectiveKind::Start:
    Code = genStart();
    break;
  case DirectiveKind::Finish:
    Code = genFinish();
    break;
  case DirectiveKind::Wait: {
    NameScope Scope;
    Scope.Raw = &R;
    Scope.Enclosing = FD;
    Scope.AtOffset = SM.getFileOffset(AC.fileLoc(R.Begin));
    std::vector<RegionCode> Waited;
    bool Ok = true;
    for (const Item &It : P.D.Wait.Items) {
      std::optional<BaseInfo> B = Names.resolveBase(Scope, It);
      if (!B || !Names.checkItemNames(Scope, It)) {
        Ok = false;
        continue;
      }
      // An item selecting a pointer stored in an array is the data it points to.
      const bool Indirect = Regions.pointerElementDepth(*B, It).has_value();
      std::optional<RegionCode> Region =
          Indirect ? Regions.buildIndirectRegion(Scope, It, *B) : Regions.buildRegion(Scope, It, *B);
      if (!Region) {
        Ok = false;
        continue;
      }
      Waited.push_back(*Region);
      if (!Indirect) warnLoopCounterExtent(AC, Names, Scope, It, LoopCounterUse::Wait);
    }
    if (!Ok) return;
    Code = genWaitOn(Waited);
    break;
  }
  default:
    return;
  }
  if (!AC.replaceDirective(R, Code, /*Headers=*/true)) {
    if (R.FromOperator && !R.Replaceable)
      AC.error(R.NameLoc,
               "'#pragma css %0' made by macro '%1' together with other code cannot be rewritten: make the "
               "macro expand to the _Pragma alone, or write '#pragma css %0' on a line of its own",
               directiveName(P.D.Kind), AC.macroNameAt(R.Begin));
    else
      AC.error(R.NameLoc,
               "'#pragma css %0' here cannot be rewritten; write it as a #pragma line of the source file",
               directiveName(P.D.Kind));
    return;
  }
  Plan.UsesRuntime = true;
}

} // namespace gpuss
