//===- OmpConstructs.cpp - OpenMP constructs around and inside OmpSs tasks --===//
#include "OmpConstructs.h"

#include "CodeGen.h"

namespace gpuss {

void OmpConstructs::add(const ParsedDirective &P, bool FileHasTasks) {
  const RawDirective &R = *P.Raw;
  // A construct whose end would wait for tasks, in a file that makes none,
  // is the compiler's (which ignores it): nothing to change. With nowait,
  // it only becomes a comment (inside a task block, it must not stay a
  // directive there).
  if (P.D.Kind == DirectiveKind::Region && !FileHasTasks) return;
  if (!AC.translatable(AC.fileLoc(R.Begin))) return; // a system header's: not run by tasks we make
  if (!AC.functionAround(R.Begin)) {
    AC.error(R.NameLoc, "'#pragma omp %0' must be inside a function body, before the statement it applies to",
             P.D.Omp.Spelled);
    return;
  }
  if (const clang::Stmt *S = statementAfter(R); S && !staysInside(P, S, false, false)) return;
  std::string Header = P.D.Kind == DirectiveKind::Critical ? genCriticalHeader(P.D.Omp.LockName)
                       : P.D.Omp.WaitsAtEnd                ? genRegionHeader(++Regions)
                                                           : std::string();
  Prefixes[&R] = {std::move(Header), P.D.Kind};
}

const clang::Stmt *OmpConstructs::statementAfter(const RawDirective &R) const {
  unsigned Offset = 0;
  const clang::Stmt *S = AC.firstFrom(AC.Facts.Stmts, R.End, Offset);
  return S && AC.onlyTrivia(AC.fileLoc(R.End), AC.fileLoc(S->getBeginLoc())) ? S : nullptr;
}

bool OmpConstructs::staysInside(const ParsedDirective &P, const clang::Stmt *Node, bool InLoop,
                                bool InSwitch) {
  if (!Node || llvm::isa<clang::LambdaExpr>(Node)) return true;
  const char *Leaves = nullptr;
  if (llvm::isa<clang::ReturnStmt>(Node))
    Leaves = "'return'";
  else if (llvm::isa<clang::GotoStmt, clang::IndirectGotoStmt>(Node))
    Leaves = "'goto'";
  else if (llvm::isa<clang::BreakStmt>(Node) && !InLoop && !InSwitch)
    Leaves = "'break'";
  else if (llvm::isa<clang::ContinueStmt>(Node) && !InLoop)
    Leaves = "'continue'";
  if (Leaves) {
    AC.error(AC.fileLoc(Node->getBeginLoc()),
             "%0 leaves the statement of '#pragma omp %1', which OpenMP forbids: %2; end the statement "
             "normally (set a flag, and test it after the construct)",
             Leaves, P.D.Omp.Spelled,
             P.D.Kind == DirectiveKind::Critical ? "the lock the construct holds would stay held, and the "
                                                   "next thread to enter would wait for ever"
                                                 : "the end of the construct, which waits for its tasks, "
                                                   "would be skipped");
    AC.note(P.Raw->NameLoc, "the construct");
    return false;
  }
  // Loops and switches inside the statement are where its break and
  // continue go.
  InLoop = InLoop || llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt>(Node);
  InSwitch = InSwitch || llvm::isa<clang::SwitchStmt>(Node);
  bool Ok = true;
  for (const clang::Stmt *Child : Node->children())
    Ok &= staysInside(P, Child, InLoop, InSwitch);
  return Ok;
}

std::optional<std::string> OmpConstructs::takePrefix(const RawDirective *R) {
  auto It = Prefixes.find(R);
  if (It == Prefixes.end()) return std::nullopt;
  Taken.insert(R);
  return It->second.first;
}

bool OmpConstructs::guardsStatementAt(clang::SourceLocation Begin) const {
  for (const auto &[R, Prefix] : Prefixes)
    if (Prefix.second == DirectiveKind::Critical && SM.getFileID(R->End) == SM.getFileID(Begin) &&
        SM.getFileOffset(R->End) <= SM.getFileOffset(Begin) && AC.onlyTrivia(R->End, Begin))
      return true;
  return false;
}

void OmpConstructs::planConstructs() {
  for (const auto &[R, Prefix] : Prefixes) {
    if (Taken.count(R)) continue;
    if (!AC.replaceDirective(*R, Prefix.first, /*Headers=*/true)) {
      AC.error(R->NameLoc,
               "'#pragma omp %0' here cannot be rewritten; write it as a #pragma line of the "
               "source file",
               R->Text.substr(0, R->Text.find(' ')));
      continue;
    }
    if (!Prefix.first.empty()) AC.Plan.UsesRuntime = true;
  }
}

} // namespace gpuss
