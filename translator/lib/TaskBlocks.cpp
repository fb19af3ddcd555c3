//===- TaskBlocks.cpp - OmpSs task blocks, outlined into functions ---------===//
#include "TaskBlocks.h"

#include "CodeGen.h"
#include "RuntimeSymbols.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <functional>
#include <map>

namespace gpuss {

using clang::SourceLocation;

void TaskBlocks::addBlock(const ParsedDirective &Task, const ParsedDirective *Target,
                          const clang::Stmt *Block, SourceLocation TextBegin) {
  BlockRequest Req;
  Req.Task = Task;
  if (Target) Req.Target = *Target;
  Req.Block = Block;
  Req.TextBegin = TextBegin;
  BlockRequests.push_back(std::move(Req));
}

void TaskBlocks::outlineBlocks() {
  for (BlockRequest &Req : BlockRequests)
    outlineBlock(Req);
}

bool TaskBlocks::inRange(SourceLocation L, const clang::Stmt *Block) const {
  L = AC.fileLoc(L);
  SourceLocation B = AC.fileLoc(Block->getBeginLoc()), E = AC.fileLoc(Block->getEndLoc());
  return SM.getFileID(L) == SM.getFileID(B) && SM.getFileOffset(B) <= SM.getFileOffset(L) &&
         SM.getFileOffset(L) <= SM.getFileOffset(E);
}

void TaskBlocks::noteValueCall(const clang::Stmt *Block) {
  // `#pragma css task ...` before `std::memcpy(...)`: the user wrote a call,
  // which is a task block only because the function returns a value (a task
  // function returns void; CallSites::callOf); the error alone spoke of a
  // block (a helper's C++ sweep, 2026-11-29).
  const auto *E = llvm::dyn_cast<clang::Expr>(Block);
  const auto *Call = E ? llvm::dyn_cast<clang::CallExpr>(E->IgnoreImplicit()->IgnoreParens()) : nullptr;
  const clang::FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || Callee->getReturnType()->isVoidType()) return;
  AC.note(AC.fileLoc(Call->getBeginLoc()),
          "'%0' returns a value, so the statement after the directive is a task block, not a call of a task "
          "function (which returns void)",
          Callee->getNameAsString());
}

bool TaskBlocks::scanBlock(const clang::Stmt *S, const clang::Stmt *Block, bool Guarded,
                           std::vector<const clang::Stmt *> &Loops, BlockScan &Scan) {
  if (!S) return true;
  SourceLocation Loc = AC.fileLoc(S->getBeginLoc());
  Guarded = Guarded || Omp.guardsStatementAt(Loc);
  const char *Why = nullptr;
  if (llvm::isa<clang::ReturnStmt>(S))
    Why = "returns from the function";
  else if (llvm::isa<clang::GotoStmt, clang::IndirectGotoStmt, clang::LabelStmt>(S))
    Why = "has a goto or a label";
  else if (llvm::isa<clang::BreakStmt, clang::ContinueStmt>(S) && Loops.empty())
    Why = "leaves it with break or continue";
  else if (llvm::isa<clang::CXXThisExpr>(S))
    Why = "uses 'this' (a member function's object)";
  else if (llvm::isa<clang::CUDAKernelCallExpr>(S))
    Why = "launches a CUDA kernel";
  if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(S); Call && !Why) {
    if (Tasks.CallSiteTasks.count(Call) || (Call->getDirectCallee() && Templates.declaredTaskCalled(Call)))
      Why = "calls a task";
    if (const clang::FunctionDecl *Callee = Call->getDirectCallee();
        Callee && Facts.StmtFunction.count(Block) &&
        Callee->getCanonicalDecl() == Facts.StmtFunction.at(Block)->getCanonicalDecl())
      Scan.CallsEnclosing = true;
  }
  if (Why) {
    AC.error(
        Loc,
        "a task block cannot be outlined into a task when it %0; write the task as a function with a task "
        "directive, and call it here",
        Why);
    noteValueCall(Block);
    return false;
  }
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S)) {
    if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
        V && !inRange(V->getLocation(), Block)) {
      Scan.Refs.push_back(Ref);
      if (std::find(Scan.Vars.begin(), Scan.Vars.end(), V) == Scan.Vars.end()) {
        Scan.Vars.push_back(V);
        Scan.FirstUse.emplace(V, Loc);
      }
      if (!Guarded) Scan.Unguarded.insert(V);
    } else if (Ref->getDecl()->getDeclContext()->isRecord() &&
               !llvm::isa<clang::EnumConstantDecl, clang::CXXMethodDecl>(Ref->getDecl())) {
      // (A member function named by a DeclRefExpr is an operator called on
      // an object, `v[i]` of a std::vector: the object is what is used.)
      AC.error(
          Loc,
          "a task block cannot be outlined into a task when it uses class member '%0'; write the task as a "
          "function with a task directive",
          Ref->getDecl()->getNameAsString());
      noteValueCall(Block);
      return false;
    }
  }
  // Writes to a variable of the enclosing function (its by-value copy, if
  // no clause names it: TaskBlocks::outlineBlock warns).
  const clang::Expr *Written = nullptr;
  if (const auto *Assign = llvm::dyn_cast<clang::BinaryOperator>(S); Assign && Assign->isAssignmentOp())
    Written = Assign->getLHS();
  else if (const auto *Step = llvm::dyn_cast<clang::UnaryOperator>(S); Step && Step->isIncrementDecrementOp())
    Written = Step->getSubExpr();
  if (const auto *Target =
          Written ? llvm::dyn_cast<clang::DeclRefExpr>(Written->IgnoreParenImpCasts()) : nullptr)
    if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Target->getDecl());
        V && !inRange(V->getLocation(), Block))
      Scan.Assigned.emplace(V, Loc);
  if (llvm::isa<clang::LambdaExpr>(S)) return true;
  bool Loop =
      llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::SwitchStmt, clang::CXXForRangeStmt>(
          S);
  if (Loop) Loops.push_back(S);
  bool Ok = true;
  for (const clang::Stmt *Child : S->children())
    Ok &= scanBlock(Child, Block, Guarded, Loops, Scan);
  if (Loop) Loops.pop_back();
  return Ok;
}

bool TaskBlocks::readAfterBlock(const clang::VarDecl *V, const clang::FunctionDecl *F,
                                const clang::Stmt *Block) const {
  struct Use {
    unsigned Offset;
    bool Overwrite; ///< the left side of a plain `=`
  };
  std::vector<Use> Uses;
  std::vector<std::pair<unsigned, unsigned>> LoopsAround; // the loops around Block, as offset ranges
  std::vector<const clang::Stmt *> Loops;
  auto offsetOf = [&](SourceLocation L) { return SM.getFileOffset(AC.fileLoc(L)); };
  std::function<void(const clang::Stmt *, bool)> Walk = [&](const clang::Stmt *S, bool Overwrite) {
    if (!S) return;
    if (S == Block) {
      for (const clang::Stmt *L : Loops)
        LoopsAround.push_back({offsetOf(L->getBeginLoc()), offsetOf(L->getEndLoc())});
      return;
    }
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S); Ref && Ref->getDecl() == V)
      Uses.push_back({offsetOf(Ref->getLocation()), Overwrite});
    bool Loop = llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt>(S);
    if (Loop) Loops.push_back(S);
    const auto *Assign = llvm::dyn_cast<clang::BinaryOperator>(S);
    for (const clang::Stmt *Child : S->children())
      Walk(Child,
           Assign && Assign->getOpcode() == clang::BO_Assign && Child == Assign->getLHS()->IgnoreParens());
    if (Loop) Loops.pop_back();
  };
  Walk(F->getBody(), false);
  const unsigned BlockEnd = offsetOf(Block->getEndLoc());
  const Use *Next = nullptr;
  for (const Use &U : Uses) {
    if (U.Offset > BlockEnd && (!Next || U.Offset < Next->Offset)) Next = &U;
    for (auto [Begin, End] : LoopsAround)
      if (!U.Overwrite && Begin <= U.Offset && U.Offset <= End) return true;
  }
  return Next && !Next->Overwrite;
}

bool TaskBlocks::checkSharing(const ParsedDirective &Task, const BlockScan &Scan) {
  const DataSharing &Sharing = Task.D.Task.Sharing;
  struct Listed {
    const SharedName *Name;
    const char *Clause;
  };
  std::map<std::string, Listed> Seen;
  bool Ok = true;
  auto check = [&](const std::vector<SharedName> &Names, const char *Clause) {
    for (const SharedName &N : Names) {
      auto [It, New] = Seen.emplace(N.Name, Listed{&N, Clause});
      if (!New) {
        if (std::string_view(Clause) == It->second.Clause)
          AC.error(Task.Raw->locationOf(N.Offset), "'%0' is named twice in %1(...); keep one", N.Name,
                   Clause);
        else
          AC.error(Task.Raw->locationOf(N.Offset),
                   "'%0' is named in %1(...) and in %2(...): a variable has one data-sharing attribute; keep "
                   "one",
                   N.Name, Clause, It->second.Clause);
        Ok = false;
        continue;
      }
      const bool Used = std::any_of(Scan.Vars.begin(), Scan.Vars.end(),
                                    [&](const clang::VarDecl *V) { return V->getName() == N.Name; });
      if (!Used)
        AC.warning(Task.Raw->locationOf(N.Offset),
                   "'%0' in %1(...) is no variable the task's statement uses from around it; the clause "
                   "changes nothing for it",
                   N.Name, Clause);
    }
  };
  check(Sharing.Shared, "shared");
  check(Sharing.FirstPrivate, "firstprivate");
  check(Sharing.Private, "private");
  return Ok;
}

unsigned TaskBlocks::endOffset(const clang::Stmt *Block) const {
  if (const auto *Compound = llvm::dyn_cast<clang::CompoundStmt>(Block))
    return SM.getFileOffset(AC.fileLoc(Compound->getRBracLoc())) + 1;
  const clang::LangOptions &LO = Ctx.getLangOpts();
  SourceLocation Last = AC.fileLoc(Block->getEndLoc());
  if (std::optional<clang::Token> Next = clang::Lexer::findNextToken(Last, SM, LO);
      Next && Next->is(clang::tok::semi))
    return SM.getFileOffset(Next->getLocation()) + 1;
  return SM.getFileOffset(clang::Lexer::getLocForEndOfToken(Last, 0, SM, LO));
}

void TaskBlocks::outlineBlock(BlockRequest &Req) {
  const clang::Stmt *Block = Req.Block;
  const auto *Compound = llvm::dyn_cast<clang::CompoundStmt>(Block);
  const ParsedDirective *Task = &Req.Task;
  const ParsedDirective *Target = Req.Target ? &*Req.Target : nullptr;
  auto Fn = Facts.StmtFunction.find(Block);
  if (Fn == Facts.StmtFunction.end()) return;
  const clang::FunctionDecl *F = Fn->second;
  static const std::vector<const clang::LambdaExpr *> NoLambdas;
  auto InLambdas = Facts.StmtLambdas.find(Block);
  const auto &Lambdas = InLambdas == Facts.StmtLambdas.end() ? NoLambdas : InLambdas->second;
  SourceLocation Loc = AC.fileLoc(Block->getBeginLoc());
  if (llvm::isa<clang::DeclStmt>(Block)) {
    AC.error(Loc, "a task directive before a declaration: the task's statement must be a call, a block "
                  "'{ ... }' or another statement, and what it declares would not outlive it");
    return;
  }
  if (Block->getBeginLoc().isMacroID() || Block->getEndLoc().isMacroID() || F->isDependentContext() ||
      (Target && Target->D.Target.Device == DeviceKind::Cuda)) {
    AC.error(Loc,
             "this task block cannot be outlined into a task (%0); write the task as a function with a task "
             "directive, and call it here",
             F->isDependentContext()                                 ? "it is inside a template"
             : Target && Target->D.Target.Device == DeviceKind::Cuda ? "a CUDA task must be a function"
                                                                     : "it is made by a macro");
    return;
  }
  // The block's text is copied with edits at these offsets: its OpenMP
  // constructs (critical, atomic, ...) as OmpConstructs writes them, and the
  // uses of the variables its clauses name.
  struct TextEdit {
    unsigned Begin, End;
    std::string Text;
  };
  std::vector<TextEdit> Edits;
  const unsigned BeginOff = SM.getFileOffset(Req.TextBegin.isValid() ? AC.fileLoc(Req.TextBegin) : Loc),
                 EndOff = endOffset(Block);
  for (const RawDirective &R : Raws)
    if (SM.getFileID(AC.fileLoc(R.Begin)) == SM.getFileID(Loc) &&
        SM.getFileOffset(AC.fileLoc(R.Begin)) >= BeginOff && SM.getFileOffset(AC.fileLoc(R.Begin)) < EndOff) {
      std::optional<std::string> Prefix = Omp.takePrefix(&R);
      if (!Prefix || R.FromOperator) {
        AC.error(R.NameLoc,
                 "a directive inside a task block: a task's body does not submit or wait for tasks; write "
                 "the task as a function with a task directive");
        return;
      }
      clang::CharSourceRange Range = clang::CharSourceRange::getCharRange(R.Begin, R.End);
      Edits.push_back({SM.getFileOffset(R.Begin), SM.getFileOffset(R.End),
                       (Prefix->empty() ? "" : *Prefix + " ") + genComment(AC.sourceText(Range))});
    }
  BlockScan Scan;
  std::vector<const clang::Stmt *> Loops;
  if (Compound) {
    for (const clang::Stmt *Child : Compound->children())
      if (!scanBlock(Child, Block, /*Guarded=*/false, Loops, Scan)) return;
  } else if (!scanBlock(Block, Block, /*Guarded=*/false, Loops, Scan)) {
    return;
  }

  NameScope Scope;
  Scope.Raw = Task->Raw;
  Scope.Enclosing = F;
  Scope.AtOffset = SM.getFileOffset(Loc);
  unsigned Line = AC.lineOf(Loc);
  TaskCode Code;
  Code.Label = Task->D.Task.Label.empty() ? "task block in " + F->getNameAsString() : Task->D.Task.Label;
  if (!Builder.buildCallTimeClauses(Task, nullptr, Scope, Code)) return;
  std::vector<PendingAccess> Pending;
  if (!Builder.buildAccesses(Task, Target, Scope, {}, Pending, Code)) return;
  for (const PendingAccess &P : Pending)
    if (!P.Base.Members.empty() || !P.Base.Var) {
      AC.error(
          P.Raw->locationOf(P.It->Offset),
          "'%0' in a task block: name the variables the block uses (members of a struct are not supported "
          "here); or write the task as a function",
          P.It->Text);
      return;
    }

  // The outlined function's parameters: the variables the clauses name,
  // through the task's pointers (an object by address, a pointer by
  // value), and the other locals the block uses, by value.
  Code.Id = Tasks.uniqueId(F->getNameAsString() + "_l" + std::to_string(Line));
  Code.Callee = std::string(rt::LocalPrefix) + "block_" + Code.Id;
  std::vector<std::string> Args;
  std::map<const clang::VarDecl *, std::string> Renamed;
  const clang::LangOptions &LO = Ctx.getLangOpts();
  const DataSharing &Sharing = Task->D.Task.Sharing;
  if (!checkSharing(*Task, Scan)) return;
  std::string PrivateDecls; // the variables private(...) names, declared in the outlined body
  std::string PrivateUses;  // and at the call, so that the function's own stays used (-Wunused)
  auto listed = [](const std::vector<SharedName> &Names, const std::string &Name) {
    return std::any_of(Names.begin(), Names.end(), [&](const SharedName &N) { return N.Name == Name; });
  };
  for (const clang::VarDecl *V : Scan.Vars) {
    std::string Name = V->getNameAsString();
    clang::QualType T = V->getType().getNonReferenceType();
    int Access = -1;
    for (size_t A = 0; A < Pending.size(); ++A)
      if (Pending[A].Base.Var == V) {
        Access = static_cast<int>(A);
        break;
      }
    // OpenMP's shared(x) (or default(shared)): the task reaches the
    // variable in place, as a task that names nothing reaches a global,
    // unordered with other tasks; the program's taskwait orders it.
    // A static local is shared in OpenMP too, and the outlined function,
    // written before the function it is in, cannot name it.
    const bool Private = Access < 0 && listed(Sharing.Private, Name);
    const bool Copied = Private || listed(Sharing.FirstPrivate, Name);
    const bool SharedByClause = listed(Sharing.Shared, Name) || Sharing.DefaultShared;
    const bool Shared = Access < 0 && !Copied && (SharedByClause || V->isStaticLocal());
    if (Sharing.DefaultNone && Access < 0 && !Copied && !listed(Sharing.Shared, Name) &&
        (V->hasLocalStorage() || V->isStaticLocal())) {
      AC.error(Scan.FirstUse.count(V) ? Scan.FirstUse.at(V) : Loc,
               "'%0' is used by the task and its directive says default(none): name it in shared(...), "
               "firstprivate(...), private(...) or a data clause",
               Name);
      return;
    }
    if (Copied && (T->isArrayType() || T->isVariablyModifiedType())) {
      AC.error(AC.fileLoc(V->getLocation()),
               "'%0', named in %1(...) of the task block at line %2, is an array: an array is not copied "
               "into a task; name it in a data clause (in(...) if the task only reads it), or in shared(...)",
               Name, Private ? "private" : "firstprivate", std::to_string(Line));
      return;
    }
    if (Shared && T->isVariablyModifiedType()) {
      AC.error(AC.fileLoc(V->getLocation()),
               "'%0', used in the task block at line %1, has a variable-length type, which the outlined task "
               "cannot name, so it cannot be shared; name its elements in a data clause (inout(%0[0;n]))",
               Name, std::to_string(Line));
      return;
    }
    if (Shared && V->isStaticLocal() && !SharedByClause && !T.isConstQualified() && Scan.Unguarded.count(V))
      AC.warning(AC.fileLoc(V->getLocation()),
                 "'%0' is used in the task block at line %1 and no clause names it: the task uses the static "
                 "variable in place, unordered with the other tasks and not on a device; name it in a clause",
                 Name, std::to_string(Line));
    ParamCode PC;
    PC.Access = Access;
    if (Private && !T->isArrayType() && !T->isVariablyModifiedType() && T->isScalarType()) {
      // The task's own, uninitialised: declared first in the outlined body.
      PrivateDecls += " " + AC.genType(T.getUnqualifiedType(), Name) + ";";
      PrivateUses += "(void)" + Name + "; ";
      continue;
    }
    if (Shared && (V->hasLocalStorage() || V->isStaticLocal()) && V->getParentFunctionOrMethod() == F) {
      PC.Name = std::string(rt::LocalPrefix) + "s_" + Name;
      PC.Declarator = AC.genType(Ctx.getPointerType(T), PC.Name);
      PC.TypeName = AC.genType(Ctx.getPointerType(T));
      Args.push_back(LO.CPlusPlus ? "__builtin_addressof(" + Name + ")" : "&" + Name);
      Renamed[V] = "(*" + PC.Name + ")";
    } else if (Shared && !V->hasLocalStorage()) {
      continue; // a global or static: reached in place already
    } else if (Access >= 0 && !T->isPointerType()) {
      PC.Name = std::string(rt::LocalPrefix) + "p_" + Name;
      PC.Declarator = AC.genType(Ctx.getPointerType(T), PC.Name);
      PC.TypeName = AC.genType(Ctx.getPointerType(T));
      Args.push_back(LO.CPlusPlus ? "__builtin_addressof(" + Name + ")" : "&" + Name);
      Renamed[V] = "(*" + PC.Name + ")";
      if (V->hasLocalStorage())
        Locals.recordLocalVariable(F, Lambdas, V, reads(Code.Accesses[static_cast<size_t>(Access)].Dir));
    } else if (Access >= 0 || V->hasLocalStorage() || Copied) {
      // (Copied: a global in firstprivate(...) gets a copy of its own too,
      // which shadows it in the outlined function.)
      const char *Why = nullptr;
      if (T->isArrayType())
        Why = "is an array: name it in a clause, so that the task reaches it (a data clause such as "
              "in(...), or shared(...) to reach it in place)";
      else if (T->isVariablyModifiedType())
        Why = "has a variable-length type";
      else if (LO.CPlusPlus && !T.isTriviallyCopyableType(Ctx))
        Why = "is not trivially copyable, so it cannot be copied into the task";
      else if (const clang::TagDecl *Tag = T->getAsTagDecl();
               Tag && Tag->getDeclContext()->isFunctionOrMethod())
        Why = "has a type local to the function, which the outlined task cannot name";
      else if (V->hasLocalStorage() && V->getParentFunctionOrMethod() != F)
        Why = "belongs to a lambda or block around the task block, which the outlined task cannot reach: "
              "there a task block may use only the variables of the function around the lambda; make the "
              "task a task function that the lambda calls";
      if (Why) {
        AC.error(AC.fileLoc(V->getLocation()), "'%0', used in the task block at line %1, %2", Name,
                 std::to_string(Line), Why);
        return;
      }
      if (auto Write = Scan.Assigned.find(V);
          !Copied && Write != Scan.Assigned.end() && readAfterBlock(V, F, Block))
        AC.warning(Write->second,
                   "'%0' is assigned in the task block at line %1, but no clause names it, so the task "
                   "assigns its own copy: the code after the task still reads the value from before it; "
                   "name it in output(%0) or inout(%0) (or shared(%0), reached in place, unordered)",
                   Name, std::to_string(Line));
      PC.Name = Name;
      PC.Declarator = AC.genType(T.getUnqualifiedType(), Name);
      PC.TypeName = AC.genType(T.getUnqualifiedType());
      Args.push_back(Name);
    } else {
      if (!T.isConstQualified() && Scan.Unguarded.count(V))
        AC.warning(
            AC.fileLoc(V->getLocation()),
            "'%0' is used in the task block at line %1 and no clause names it: the task uses it in place, "
            "unordered with the other tasks and not on a device; name it in a clause",
            Name, std::to_string(Line));
      continue;
    }
    Code.Params.push_back(PC);
  }

  // The block's text, its variables named through the parameters.
  // A lone statement (or one under a critical or atomic) becomes the body
  // of the outlined function in braces.
  const bool Braced = Compound && Req.TextBegin.isInvalid();
  std::string Text = Braced ? "" : "{ ";
  unsigned At = BeginOff;
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Loc));
  for (const clang::DeclRefExpr *Ref : Scan.Refs) {
    auto It = Renamed.find(llvm::cast<clang::VarDecl>(Ref->getDecl()));
    if (It == Renamed.end()) continue;
    if (Ref->getLocation().isMacroID()) {
      AC.error(AC.fileLoc(Ref->getLocation()),
               "'%0', which a clause of the task block names, is used inside a macro here; the outlined task "
               "reaches it through a pointer and cannot rewrite the macro",
               Ref->getDecl()->getNameAsString());
      return;
    }
    unsigned Off = SM.getFileOffset(Ref->getLocation());
    Edits.push_back({Off, Off + static_cast<unsigned>(Ref->getDecl()->getName().size()), It->second});
  }
  std::stable_sort(Edits.begin(), Edits.end(),
                   [](const TextEdit &A, const TextEdit &B) { return A.Begin < B.Begin; });
  for (const TextEdit &E : Edits) {
    Text += Buffer.slice(At, E.Begin).str() + E.Text;
    At = E.End;
  }
  Text += Buffer.slice(At, EndOff).str();
  if (!Braced) Text += " }";
  Text.insert(1, PrivateDecls); // after the '{'; C89 wants declarations first
  std::string Params;
  for (const ParamCode &P : Code.Params)
    Params += (Params.empty() ? "" : ", ") + P.Declarator;
  // The outlined function comes before the one the block is in: a block
  // that calls that function (a recursion) needs it declared first.
  std::string Prototype;
  if (Scan.CallsEnclosing && !F->getPreviousDecl() && !llvm::isa<clang::CXXMethodDecl>(F) &&
      F->getDeclContext()->getRedeclContext()->isTranslationUnit())
    Prototype = std::string(F->getStorageClass() == clang::SC_Static ? "static " : "") +
                (F->isInlineSpecified() ? "inline " : "") + AC.genType(F->getType(), F->getNameAsString()) +
                ";\n";
  Code.Outlined = Prototype + "static void " + Code.Callee + "(" +
                  (Params.empty() ? std::string("void") : Params) + ")\n" +
                  genLineDirective(Line, AC.fileName(Loc)) + Text + "\n";
  if (Code.Params.empty()) Args.clear();
  Code.Pin = AC.pinOf(*Task->Raw);

  size_t Index = Tasks.add(Code, Task->Raw, nullptr);
  CallSite Site{nullptr, F, Facts.DefinitionTopDecl.count(F) ? Facts.DefinitionTopDecl.at(F) : nullptr};
  Calls.emitSupport(Index, Site, false);
  std::string Submit = genCallSiteSubmit(Tasks[Index].Code, Args, AC.fileName(Loc), Line, AC.Opts) + ";";
  if (!PrivateUses.empty()) Submit = "{ " + PrivateUses + Submit + " }";
  Submit += "\n" + genLineDirective(AC.lineOf(Block->getEndLoc()), AC.fileName(Loc));
  SourceLocation TextLoc = SM.getComposedLoc(SM.getFileID(Loc), BeginOff);
  Plan.Replacements.push_back({clang::CharSourceRange::getCharRange(
                                   TextLoc, TextLoc.getLocWithOffset(static_cast<int>(EndOff - BeginOff))),
                               Submit});
  Plan.UsesRuntime = true;
  AC.commentOut(Task, Target);
}

} // namespace gpuss
