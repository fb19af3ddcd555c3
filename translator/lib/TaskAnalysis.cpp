//===- TaskAnalysis.cpp - Attach directives to code, check them, plan edits ===//
#include "TaskAnalysis.h"

#include "AnalysisContext.h"
#include "CallSites.h"
#include "LocalWaits.h"
#include "NameLookup.h"
#include "OmpConstructs.h"
#include "PragmaParser.h"
#include "RegionBuilder.h"
#include "SizeChecks.h"
#include "SyncDirectives.h"
#include "TaskBlocks.h"
#include "TaskBuilder.h"
#include "TaskDeclarations.h"
#include "TaskRegistry.h"
#include "Templates.h"

#include "clang/AST/DeclTemplate.h"

namespace gpuss {
namespace {

using clang::SourceLocation;

/// Parses the directives, pairs each task directive with the target
/// directive next to it, hands each group to the part of the analysis that
/// owns what follows it, and runs the parts' later phases in order.
class Analyzer {
public:
  Analyzer(clang::ASTContext &Ctx, const std::vector<RawDirective> &Raws, const StringizedTokens &Stringized,
           const ASTFacts &Facts, EditPlan &Plan, const ConstantEvaluator &Evaluate)
      : AC(Ctx, Raws, Stringized, Facts, Plan), SM(AC.SM), Facts(Facts), Evaluate(Evaluate) {}

  bool run() {
    // 1. Every directive parsed; a syntax error stops the analysis.
    // Whether the file makes tasks decides what OpenMP constructs mean
    // (OmpConstructs): a task directive is one whose first word is task.
    std::vector<ParsedDirective> Parsed;
    auto firstWord = [](const RawDirective &R) { return llvm::StringRef(R.Text).split(' ').first; };
    bool FileHasTasks = false;
    for (const RawDirective &R : AC.Raws)
      FileHasTasks |= firstWord(R) == "task";
    for (const RawDirective &R : AC.Raws) {
      if (R.Dialect == PragmaDialect::Omp && R.FromOperator) {
        // OpenMP's constructs that end in a barrier matter only where there
        // are tasks to wait for.
        llvm::StringRef W = firstWord(R);
        if (!FileHasTasks && W != "critical" && W != "atomic") continue;
        AC.error(R.NameLoc,
                 "'_Pragma(\"omp %0\")' is not read by GPUSs (OmpSs tasks and the OpenMP constructs around "
                 "and inside them must be #pragma lines): write '#pragma omp %0' on a line of its own",
                 R.Text);
        continue;
      }
      ParseResult Result = parseDirective(R.Text, R.Dialect);
      if (!Result.Parsed) {
        AC.error(R.locationOf(Result.Error.Offset), "%0", Result.Error.Message);
        continue;
      }
      Parsed.push_back({&R, std::move(*Result.Parsed)});
    }
    if (AC.Failed) return false;
    // 2. Each directive attached to the code after it, in source order.
    for (size_t I = 0; I < Parsed.size(); ++I) {
      ParsedDirective &P = Parsed[I];
      switch (P.D.Kind) {
      case DirectiveKind::Task:
      case DirectiveKind::Target: {
        ParsedDirective *Task = nullptr, *Target = nullptr;
        (P.D.Kind == DirectiveKind::Task ? Task : Target) = &P;
        const ParsedDirective *Last = &P;
        if (I + 1 < Parsed.size()) {
          ParsedDirective &N = Parsed[I + 1];
          bool Complement =
              (N.D.Kind == DirectiveKind::Task && !Task) || (N.D.Kind == DirectiveKind::Target && !Target);
          if (Complement && AC.onlyTrivia(P.Raw->End, N.Raw->Begin)) {
            (N.D.Kind == DirectiveKind::Task ? Task : Target) = &N;
            Last = &N;
            ++I;
          }
        }
        if (!Task) {
          AC.error(Target->Raw->NameLoc,
                   "a target directive must be next to a task directive (on the line before "
                   "or after it)");
          break;
        }
        attachTask(Task, Target, Last->Raw);
        break;
      }
      case DirectiveKind::Critical:
      case DirectiveKind::Region:
        Omp.add(P, FileHasTasks);
        break;
      default:
        // `#pragma omp taskwait` or `barrier` in a file without tasks: an
        // OpenMP program's, left to the compiler.
        if (P.Raw->Dialect == PragmaDialect::Omp && !FileHasTasks) break;
        Sync.handleSync(P);
        break;
      }
    }
    // 3. Checks that need every task known, and task blocks (whose bodies
    // must not call tasks).
    Calls.checkCallSitesOfDeclaredTasks();
    Calls.warnTaskAddresses();
    Blocks.outlineBlocks();
    Omp.planConstructs();
    if (AC.Failed) return false;
    // 4. The edits of the calls and of the scopes of locals; then the
    // constant sizes, which Clang evaluates in a second parse.
    Calls.planCalls();
    Calls.planKernelLaunches();
    Locals.planLocalWaits();
    if (!AC.Failed) Sizes.checkConstantSizes();
    return !AC.Failed;
  }

private:
  AnalysisContext AC;
  clang::SourceManager &SM;
  const ASTFacts &Facts;
  const ConstantEvaluator &Evaluate;
  // The parts, each after those it relies on.
  NameResolver Names{AC};
  SizeChecker Sizes{AC, Names, Evaluate};
  RegionBuilder Regions{AC, Names, Sizes};

  TaskRegistry Tasks;
  TemplateSupport Templates{AC, Tasks};
  TaskBuilder Builder{AC, Names, Regions, Templates};
  LocalWaits Locals{AC, Tasks};
  CallSites Calls{AC, Tasks, Builder, Templates, Locals};
  TaskDeclarations Declarations{AC, Tasks, Builder, Templates};
  OmpConstructs Omp{AC};
  TaskBlocks Blocks{AC, Names, Builder, Tasks, Templates, Calls, Locals, Omp};
  SyncDirectives Sync{AC, Names, Regions};

  /// The declaration or statement right after a directive group: a
  /// function declaration (TaskDeclarations), a statement that calls a
  /// function (CallSites), or another statement, a block or not
  /// (TaskBlocks).
  void attachTask(ParsedDirective *Task, ParsedDirective *Target, const RawDirective *Last) {
    // `#pragma css task target device(...) ...`: the target written inside.
    ParsedDirective Embedded;
    if (Task->D.Task.HasTarget) {
      if (Target) {
        AC.error(Target->Raw->NameLoc, "a second target for one task: the task directive has 'target "
                                       "device(...)' in it already; keep one of the two");
        AC.note(Task->Raw->locationOf(Task->D.Task.TargetOffset), "the target in the task directive");
        return;
      }
      Embedded.Raw = Task->Raw;
      Embedded.D.Kind = DirectiveKind::Target;
      Embedded.D.Offset = Task->D.Task.TargetOffset;
      Embedded.D.Target = Task->D.Task.Target;
      Target = &Embedded;
    }
    SourceLocation End = AC.fileLoc(Last->End);
    auto [File, Off] = SM.getDecomposedLoc(End);
    unsigned DeclOff = ~0u, StmtOff = ~0u;
    const clang::Decl *BestDecl = AC.firstFrom(Facts.Decls, End, DeclOff);
    const clang::Stmt *BestStmt = AC.firstFrom(Facts.Stmts, End, StmtOff);
    if (BestStmt && StmtOff < DeclOff)
      BestDecl = nullptr;
    else
      BestStmt = nullptr;
    const unsigned BestOff = std::min(DeclOff, StmtOff);
    SourceLocation BestLoc = BestOff == ~0u ? SourceLocation() : SM.getComposedLoc(File, BestOff);
    // `#pragma omp task` then `#pragma omp atomic` (or critical) then the
    // statement: the construct is part of the task's statement, which then
    // starts at the construct's directive. Any other directive there is
    // refused with the fix.
    SourceLocation StatementText; // where the task's statement text starts, when not at BestLoc
    for (const RawDirective &R : AC.Raws) {
      auto [F, O] = SM.getDecomposedLoc(AC.fileLoc(R.Begin));
      if (!BestStmt || F != File || O < Off || O >= BestOff) continue;
      std::string Construct = R.Text.substr(0, R.Text.find_first_of(" ("));
      const bool Guard = R.Dialect == PragmaDialect::Omp && !R.FromOperator &&
                         (Construct == "critical" || Construct == "atomic");
      if (!Guard || !AC.onlyTrivia(StatementText.isValid() ? StatementText : End, R.Begin)) {
        AC.error(
            R.NameLoc,
            "'#pragma %0 %1' between a task directive and its statement: put it in braces after the task "
            "directive, '{ #pragma %0 %1 <statement> }'",
            dialectName(R.Dialect), Construct);
        AC.note(Task->Raw->NameLoc, "task directive here");
        return;
      }
      if (StatementText.isInvalid()) StatementText = R.Begin;
      End = AC.fileLoc(R.End);
    }
    if ((!BestDecl && !BestStmt) || !AC.onlyTrivia(End, BestLoc)) {
      AC.error(Task->Raw->NameLoc, "a task directive must be followed by a function declaration, a function "
                                   "definition or a statement");
      return;
    }
    if (BestDecl) {
      const auto *Template = llvm::dyn_cast<clang::FunctionTemplateDecl>(BestDecl);
      const auto *FD =
          Template ? Template->getTemplatedDecl() : llvm::dyn_cast<clang::FunctionDecl>(BestDecl);
      // `template <typename T>` above the directive: the function is
      // still the template's.
      if (FD && !Template) Template = FD->getDescribedFunctionTemplate();
      if (!FD) {
        AC.error(AC.fileLoc(BestDecl->getBeginLoc()),
                 "a task directive must be followed by a function declaration, a "
                 "function definition or a call; this declares something else");
        AC.note(Task->Raw->NameLoc, "task directive here");
        return;
      }
      Declarations.attach(Task, Target, FD, Template);
      return;
    }
    // A statement: a call of a function (its call-site task), or any other
    // statement, a block `{ ... }` or not (an OmpSs inline task).
    // A statement under a critical or atomic is a task block whatever it
    // is: the lock is taken in the task.
    const clang::Stmt *S = BestStmt;
    if (CallSites::callOf(S) && StatementText.isInvalid())
      Calls.attach(S, Task, Target);
    else
      Blocks.addBlock(*Task, Target, S, StatementText);
  }
};

} // namespace

bool analyzeAndPlan(clang::ASTContext &Context, const std::vector<RawDirective> &Directives,
                    const StringizedTokens &Stringized, const ASTFacts &Facts, EditPlan &Plan,
                    const ConstantEvaluator &Evaluate) {
  return Analyzer(Context, Directives, Stringized, Facts, Plan, Evaluate).run();
}

} // namespace gpuss
