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
      if (!Indirect && !warnLoopCounterExtent(AC, Names, Scope, It, LoopCounterUse::Wait))
        warnRowCount(Scope, It, *B);
    }
    if (!Ok) return;
    Code = genWaitOn(Waited, AC.fileName(R.Begin), AC.lineOf(R.Begin));
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

/// `wait on(outs[3])` where an element of `outs` is itself an array (a row
/// of `long outs[4][N]`, of `double (*m)[N]`): GPUSs reads `x[e]` as e
/// elements, the first 3 rows, but SMPSs's `wait on` took an address, and
/// its programs write this for row 3. The wait is then for other rows, and
/// the program reads row 3 before its task has written it (found by a
/// sweep of SMPSs-style programs, 2026-11-29).
void SyncDirectives::warnRowCount(const NameScope &Scope, const Item &It, const BaseInfo &B) {
  if (!It.isSingleCount()) return;
  clang::QualType Element;
  if (const clang::ArrayType *Array = AC.Ctx.getAsArrayType(B.Type))
    Element = Array->getElementType();
  else if (const auto *Pointer = B.Type->getAs<clang::PointerType>())
    Element = Pointer->getPointeeType();
  if (Element.isNull() || !Element->isArrayType()) return;
  const std::string &Count = It.Dims[0].First.Text;
  AC.warning(Scope.Raw->locationOf(It.Dims[0].Offset),
             "'%0' is the first %1 rows of '%2' ('x[n]' counts elements in GPUSs, and an element of '%2' is a "
             "row), not row %1 as the address 'wait on' took in SMPSs; to wait for row %1 write '%2[%1;1]', and "
             "for the first %1 rows '%2[0;%1]'",
             It.Text, Count, It.baseText());
}

} // namespace gpuss
