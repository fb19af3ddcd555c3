//===- TaskBlocks.h - OmpSs task blocks, outlined into functions -----------===//
//
// Owns the task directives that stand before a block `{ ... }` or another
// statement that is not a call (OmpSs inline tasks: `#pragma omp task`
// before `x = fib(n - 1);`, say). After every directive has been attached,
// each block (a lone statement is the block around it) is
// outlined into a static function written before the task's support code:
// the variables its clauses name become pointer parameters (the block's
// uses rewritten through them), the other locals it uses are passed by
// value, and the block becomes the task's submit. Blocks that an outlined
// function cannot reproduce are reported (return, goto, break out of the
// block, `this`, class members, kernel launches, calls of tasks, directives
// inside other than OpenMP's critical, atomic and the like, blocks in
// templates or made by macros, CUDA targets), and so are unnamed variables
// it cannot copy; unnamed ones it can are warned about.
//
// Relies on TaskBuilder (the accesses), CallSites (the support code),
// OmpConstructs (the OpenMP constructs inside a block),
// LocalWaits (the locals it reaches), NameLookup, TaskRegistry, Templates
// and AnalysisContext.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_TASKBLOCKS_H
#define GPUSS_TRANSLATOR_TASKBLOCKS_H

#include "AnalysisContext.h"
#include "CallSites.h"
#include "LocalWaits.h"
#include "NameLookup.h"
#include "OmpConstructs.h"

#include "TaskBuilder.h"
#include "TaskRegistry.h"
#include "Templates.h"
#include <map>
#include <set>

#include <optional>
#include <vector>

namespace gpuss {

class TaskBlocks {
public:
  TaskBlocks(AnalysisContext &AC, NameResolver &Names, TaskBuilder &Builder, TaskRegistry &Tasks,
             TemplateSupport &Templates, CallSites &Calls, LocalWaits &Locals, OmpConstructs &Omp)
      : AC(AC), Ctx(AC.Ctx), SM(AC.SM), Raws(AC.Raws), Facts(AC.Facts), Plan(AC.Plan), Names(Names),
        Builder(Builder), Tasks(Tasks), Templates(Templates), Calls(Calls), Locals(Locals), Omp(Omp) {}

  /// A task directive (and its target) before Block, a compound statement
  /// or a lone one: outlined by outlineBlocks(). TextBegin: where the
  /// task's text starts when a critical or atomic directive stands between
  /// the task directive and Block (it becomes part of the task); invalid
  /// otherwise.
  void addBlock(const ParsedDirective &Task, const ParsedDirective *Target, const clang::Stmt *Block,
                clang::SourceLocation TextBegin = {});

  /// Outlines the blocks, once every directive is read (a call inside a
  /// block must not be a task).
  void outlineBlocks();

private:
  /// OmpSs: a task directive before a statement, `{ ... }` or not. Outlined
  /// after every directive is read (a call inside the block must not be a
  /// task).
  struct BlockRequest {
    ParsedDirective Task;
    std::optional<ParsedDirective> Target;
    const clang::Stmt *Block = nullptr;
    clang::SourceLocation TextBegin; ///< a critical or atomic directive before Block, if any
  };

  /// What a block does that an outlined function cannot, and the variables
  /// it uses from around it (first use first).
  struct BlockScan {
    std::vector<const clang::DeclRefExpr *> Refs;
    std::vector<const clang::VarDecl *> Vars;
    /// Variables used outside every critical or atomic construct: those
    /// used only inside one are shared on purpose.
    std::set<const clang::VarDecl *> Unguarded;
    /// Variables the block assigns (`=`, `op=`, `++`, `--`), at the first.
    std::map<const clang::VarDecl *, clang::SourceLocation> Assigned;
    /// Where each of Vars is first used.
    std::map<const clang::VarDecl *, clang::SourceLocation> FirstUse;
    /// The block calls the function it is in (a recursion: `x = fib(n - 1)`).
    bool CallsEnclosing = false;
  };

  /// Whether the function reads V's value after Block: its first use after
  /// the block is not a plain assignment, or a loop around the block reads
  /// it outside the block.
  bool readAfterBlock(const clang::VarDecl *V, const clang::FunctionDecl *F, const clang::Stmt *Block) const;

  bool inRange(clang::SourceLocation L, const clang::Stmt *Block) const;

  /// After an error about a task block that is one call of a function
  /// returning a value: a note that this is why it is a block.
  void noteValueCall(const clang::Stmt *Block);
  bool scanBlock(const clang::Stmt *S, const clang::Stmt *Block, bool Guarded,
                 std::vector<const clang::Stmt *> &Loops, BlockScan &Scan);

  void outlineBlock(BlockRequest &Req);

  /// The names of the data-sharing clauses: each in one clause (an error
  /// otherwise), and one the block uses (a warning otherwise: a misspelt
  /// or undeclared name, which OpenMP compilers refuse).
  bool checkSharing(const ParsedDirective &Task, const BlockScan &Scan);

  /// Where Block's text ends: after its `}`, or after the `;` that ends a
  /// lone statement (which Clang leaves out of the statement's range).
  unsigned endOffset(const clang::Stmt *Block) const;

  AnalysisContext &AC;
  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  const std::vector<RawDirective> &Raws;
  const ASTFacts &Facts;
  EditPlan &Plan;
  NameResolver &Names;
  TaskBuilder &Builder;
  TaskRegistry &Tasks;
  TemplateSupport &Templates;
  CallSites &Calls;
  LocalWaits &Locals;
  OmpConstructs &Omp;
  std::vector<BlockRequest> BlockRequests;
};

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_TASKBLOCKS_H
