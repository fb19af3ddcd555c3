//===- TaskBuilder.h - A task directive and its function as a task model ---===//
//
// Owns the model of one task (TaskModel.h) from its directive, its target
// directive and the function it calls: whether the function can be a task
// (returns void, no variadics or packs, copyable parameters, a public
// static member at most), the task's label and callee, its accesses (one
// per item of the data and copy clauses, the directions of an item named
// twice merged, regions from RegionBuilder, the copy flags of a target) and
// its parameters (how each is stored in the argument struct, and the access
// its pointer, reference or pointer members are rebased with). The user
// mistakes of clauses against parameters are reported here: scalars by
// value in output clauses, const data written, items through stored
// pointers, pointers and references no clause names, OmpSs element items.
//
// Used for declaration pragmas (TaskDeclarations), call-site pragmas
// (CallSites) and task blocks (TaskBlocks); relies on NameLookup,
// RegionBuilder, Templates and AnalysisContext.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_TASKBUILDER_H
#define GPUSS_TRANSLATOR_TASKBUILDER_H

#include "AnalysisContext.h"
#include "NameLookup.h"
#include "RegionBuilder.h"
#include "TaskModel.h"
#include "Templates.h"

#include <set>
#include <string>
#include <vector>

namespace gpuss {

/// An item of a task's clauses, before its region is built.
struct PendingAccess {
  const Item *It = nullptr;
  const RawDirective *Raw = nullptr; ///< the directive the item is written in
  BaseInfo Base;
  Direction Dir = Direction::In;
  bool CopyIn = false;  ///< named in copy_in or copy_inout
  bool CopyOut = false; ///< named in copy_out or copy_inout
};

class TaskBuilder {
public:
  TaskBuilder(AnalysisContext &AC, NameResolver &Names, RegionBuilder &Regions, TemplateSupport &Templates)
      : AC(AC), Ctx(AC.Ctx), Names(Names), Regions(Regions), Templates(Templates) {}

  /// Whether FD can be a task; reports why not at UseLoc.
  bool checkTaskFunction(const clang::FunctionDecl *FD, clang::SourceLocation UseLoc);

  /// Builds the model of a task. `FD` names the parameters (declaration
  /// pragma) or is the callee (call-site pragma, `Call` set).
  bool buildTask(const clang::FunctionDecl *FD, const ParsedDirective *Task, const ParsedDirective *Target,
                 const NameScope &Scope, const clang::CallExpr *Call, TaskCode &Code);

  /// What the task's directive says for each call besides its data: the
  /// priority, the final and if expressions (names checked and qualified
  /// for the generated code), and the directive's text for comments.
  bool buildCallTimeClauses(const ParsedDirective *Task, const ParsedDirective *Target,
                            const NameScope &Scope, TaskCode &Code);

  /// The accesses of a task's clauses (and its target's copy clauses).
  /// `ByValueVars`: at a call site, the variables passed by value.
  bool buildAccesses(const ParsedDirective *Task, const ParsedDirective *Target, const NameScope &Scope,
                     const std::set<const clang::ValueDecl *> &ByValueVars,
                     std::vector<PendingAccess> &Pending, TaskCode &Code);

private:
  std::string calleeSpelling(const clang::FunctionDecl *FD) const;

  /// Whether the data an item names is const: the copy-back of a task that
  /// writes it would land in read-only memory.
  bool isConstData(const BaseInfo &B) const;

  /// OmpSs's `in(x[k-1]) out(x[k])` means elements k-1 and k; GPUSs's `x[n]`
  /// is the n elements from x[0] (the StarSs meaning, kept). Where an item's
  /// extent on a plain pointer is a variable plus or minus a number and
  /// another item of the same pointer has that variable (or it plus or minus
  /// a number) as extent, the writer most likely meant elements: a warning.
  /// Whether it warned.
  bool warnLikelyElementItems(const NameScope &S, const std::vector<PendingAccess> &Pending);
  /// Call-site tasks and task blocks: items `x[i]` counted with the counter
  /// of a loop around the directive (LoopCounters.h).
  void warnLoopCounterItems(const NameScope &S, const std::vector<PendingAccess> &Pending);

  /// The parameters of a task of function FD: how each is stored and
  /// passed, and the access its pointer is rebased with.
  /// The task keeps the address of the object parameter PC refers to
  /// (a `T &`, or a `const T &` reached through it): the body gets it back
  /// through its access.
  void keepAddress(ParamCode &PC, clang::QualType Object) const;
  bool buildParams(const clang::FunctionDecl *FD, const clang::CallExpr *Call,
                   const std::vector<PendingAccess> &Pending, TaskCode &Code);

  AnalysisContext &AC;
  clang::ASTContext &Ctx;
  NameResolver &Names;
  RegionBuilder &Regions;
  TemplateSupport &Templates;
};

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_TASKBUILDER_H
