//===- OmpConstructs.h - OpenMP constructs around and inside OmpSs tasks ----===//
//
// Owns the `#pragma omp` constructs that are not tasks but decide whether an
// OmpSs program is right once its tasks run at the same time:
// - `critical [(name)]` and `atomic`: the statement after runs under a
//   process-wide lock (css_critical_enter, gpuss.h), as it excludes the
//   other threads under Nanos++;
// - the constructs whose end is a barrier (parallel, single, for, sections,
//   scope, taskgroup, taskloop, without nowait): the program may read what
//   the tasks made inside them wrote right after them, so their end waits
//   for those tasks (css_barrier: every task, or in a task body its
//   children). They are planned only where the file has tasks: in a program
//   without any they change nothing, and are left alone.
// Each becomes a one-pass `for` header in place of its directive line, so
// that the construct's statement (whatever it is) becomes the loop's body
// and its end is the loop's step. A construct inside an OmpSs task block is
// written into the outlined function instead (TaskBlocks asks prefixFor).
//
// Relies on AnalysisContext and CodeGen.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_OMPCONSTRUCTS_H
#define GPUSS_TRANSLATOR_OMPCONSTRUCTS_H

#include "AnalysisContext.h"

#include <map>
#include <optional>
#include <set>
#include <string>

namespace gpuss {

class OmpConstructs {
public:
  explicit OmpConstructs(AnalysisContext &AC) : AC(AC), SM(AC.SM) {}

  /// Records a Critical or Region directive (phase 2).
  void add(const ParsedDirective &P, bool FileHasTasks);

  /// The code that stands for a recorded construct's directive, if it has
  /// one; marks it as written (by a task block's outlined text).
  std::optional<std::string> takePrefix(const RawDirective *R);

  /// Whether a statement that begins at `Begin` is the one a critical or
  /// atomic construct guards (only blank space and comments between).
  bool guardsStatementAt(clang::SourceLocation Begin) const;

  /// Replaces the directive lines not written elsewhere (phase 3, after
  /// the task blocks are outlined).
  void planConstructs();

private:
  /// The statement a construct applies to: the first one after its
  /// directive, with only blank space and comments between.
  const clang::Stmt *statementAfter(const RawDirective &R) const;
  /// Reports a `return`, `goto`, `break` or `continue` in Node that leaves
  /// the statement of construct P (OpenMP forbids it): the lock of a
  /// critical would stay held, the end of a region would not wait. InLoop,
  /// InSwitch: Node is inside a loop or switch of that statement, where its
  /// break (and a loop's continue) go. True if none.
  bool staysInside(const ParsedDirective &P, const clang::Stmt *Node, bool InLoop, bool InSwitch);

  AnalysisContext &AC;
  clang::SourceManager &SM;
  std::map<const RawDirective *, std::pair<std::string, DirectiveKind>> Prefixes;
  std::set<const RawDirective *> Taken;
  unsigned Regions = 0; ///< constructs that end in a barrier, numbered
};

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_OMPCONSTRUCTS_H
