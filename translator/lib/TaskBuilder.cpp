//===- TaskBuilder.cpp - A task directive and its function as a task model =//
#include "TaskBuilder.h"

#include "LoopCounters.h"
#include "RuntimeSymbols.h"

#include "clang/AST/DeclCXX.h"
#include "llvm/Support/Regex.h"
#include <tuple>

namespace gpuss {

using clang::SourceLocation;

namespace {

/// The name a task shows in traces and errors: label(...), or the
/// function's name (Class::name for a static member function).
std::string taskLabel(const clang::FunctionDecl *FD, const TaskDirective &Task) {
  if (!Task.Label.empty()) return Task.Label;
  if (const auto *M = llvm::dyn_cast<clang::CXXMethodDecl>(FD))
    return M->getParent()->getNameAsString() + "::" + M->getNameAsString();
  return FD->getNameAsString();
}

/// Whether an array dimension of T, or of what T points to, is a
/// prototype's unspecified `[*]` (C99 `double a[*][*]`).
bool hasUnspecifiedSize(clang::QualType T) {
  while (!T.isNull()) {
    if (const auto *P = T->getAs<clang::PointerType>()) {
      T = P->getPointeeType();
      continue;
    }
    const clang::ArrayType *AT = T->getAsArrayTypeUnsafe();
    if (!AT) return false;
    if (AT->getSizeModifier() == clang::ArraySizeModifier::Star) return true;
    T = AT->getElementType();
  }
  return false;
}

/// The member path of a member item relative to its struct: ".data" for
/// `s.data` and `p->data`, ".m.r" for `p->m.r`.
std::string relativePath(const BaseInfo &B) {
  std::string Path;
  for (const MemberStep &M : B.Members)
    Path += "." + M.Name;
  return Path;
}

} // namespace

bool TaskBuilder::checkTaskFunction(const clang::FunctionDecl *FD, SourceLocation UseLoc) {
  if (!FD->getReturnType()->isVoidType()) {
    AC.error(UseLoc,
             "task function '%0' returns a value (of type '%1'); task functions must return void: return "
             "the result through a pointer parameter named in output(...)",
             FD->getNameAsString(), AC.printType(FD->getReturnType()));
    if (UseLoc != FD->getLocation()) AC.note(FD->getLocation(), "'%0' declared here", FD->getNameAsString());
    return false;
  }
  if (const auto *M = llvm::dyn_cast<clang::CXXMethodDecl>(FD)) {
    std::string Name = M->getParent()->getNameAsString() + "::" + M->getNameAsString();
    if (!M->isStatic()) {
      AC.error(UseLoc,
               "non-static member function '%0' cannot be a task: a task has no object to call it on; make "
               "it a static member function, or a free function that takes the object by pointer and names "
               "it in a data clause",
               Name);
      return false;
    }
    if (M->getParent()->isDependentContext()) {
      AC.error(UseLoc,
               "static member function '%0' of a class template cannot be a task; make it a free function "
               "template",
               Name);
      return false;
    }
    for (const clang::DeclContext *DC = M->getDeclContext(); DC && DC->isRecord(); DC = DC->getParent()) {
      const auto *Class = llvm::cast<clang::CXXRecordDecl>(DC);
      if (Class->isLocalClass() || Class->getName().empty()) {
        AC.error(UseLoc,
                 "static member function '%0' of a local or unnamed class cannot be a task: the generated "
                 "code cannot name it; move the class to namespace scope and give it a name",
                 Name);
        return false;
      }
    }
    for (const clang::Decl *D = M; D && D->getDeclContext()->isRecord();
         D = llvm::cast<clang::Decl>(D->getDeclContext()))
      if (D->getAccess() != clang::AS_public) {
        AC.error(UseLoc,
                 "static member function '%0' is not public (it or a class around it is private or "
                 "protected): the generated task code calls it from outside the class; make it public",
                 Name);
        return false;
      }
  }
  if (FD->isVariadic()) {
    AC.error(UseLoc, "variadic function '%0' cannot be a task: a task needs a fixed list of parameters",
             FD->getNameAsString());
    return false;
  }
  for (const clang::ParmVarDecl *P : FD->parameters()) {
    clang::QualType T = P->getType();
    if (P->isParameterPack()) {
      AC.error(P->getLocation(),
               "parameter pack '%0' of task function '%1': a task needs a fixed list of parameters",
               P->getNameAsString(), FD->getNameAsString());
      return false;
    }
    bool KeptByAddress = false; // `T &x`
    if (T->isReferenceType()) {
      // `const T &x` of a trivially copyable T is captured by value; a
      // `T &x` named in a clause is the object it refers to.
      clang::QualType Object = T.getNonReferenceType();
      const char *Why = nullptr;
      if (T->isRValueReferenceType())
        Why = "an rvalue reference: a task runs later, when the temporary it binds to is gone";
      else if (Object->isPointerType() && !Object.isConstQualified())
        Why = "a reference to a pointer: the task cannot change the caller's pointer";
      else if (!Object->isDependentType() && !hasKnownSize(Object))
        Why = "a reference to an object of unknown size";
      if (Why) {
        AC.error(
            P->getLocation(),
            "parameter '%0' of task function '%1' is %2 (type '%3'); pass a pointer and name it in a data "
            "clause (e.g. 'inout(%0[n])'), or take the value by const reference",
            P->getNameAsString(), FD->getNameAsString(), Why, AC.printType(T));
        return false;
      }
      KeptByAddress = !Object.isConstQualified(); // checked against the clauses
      T = Object;
    }
    // A C99 variable-length array parameter (`double a[n][n]`) is a
    // pointer whose type depends on the other parameters: the task keeps
    // the address and the call gets it back with its type.
    // `[*]` leaves a size to the definition; the code the translator writes
    // around the call spells the parameter's type, and no definition's sizes
    // reach it (the compiler then refuses `[*]` outside a prototype). The
    // first dimension of an array parameter decays (`double a[*]` is a
    // pointer; its length is the clause's).
    if (!Ctx.getLangOpts().CPlusPlus && hasUnspecifiedSize(P->getType())) {
      AC.error(P->getLocation(),
               "parameter '%0' of task function '%1' is declared '%2', whose '[*]' leaves its sizes to "
               "another declaration; give them in the declaration that carries the directive (e.g. 'double "
               "%0[n][m]' with n and m parameters before it), or declare it as a plain pointer with its "
               "shape in the clause",
               P->getNameAsString(), FD->getNameAsString(), AC.printType(P->getOriginalType()));
      return false;
    }
    if (T->isVariablyModifiedType() && (Ctx.getLangOpts().CPlusPlus || !T->isPointerType())) {
      AC.error(P->getLocation(),
               "parameter '%0' of task function '%1' has a variable-length array type ('%2'), which "
               "%3; declare it as a plain pointer and give its shape in the clause, e.g. 'inout([n][n]%0)'",
               P->getNameAsString(), FD->getNameAsString(), AC.printType(P->getOriginalType()),
               Ctx.getLangOpts().CPlusPlus ? "C++ does not have" : "a task cannot hold");
      return false;
    }
    // A type that depends on template parameters is checked when the
    // template is instantiated (a static_assert in the generated code). A
    // `T &x` is not copied, but the task works on the object's bytes where
    // it runs (a device's copy of them): a std::vector's are a few pointers
    // to elements that no clause names, which tasks reaching them through
    // data() are not ordered with (wrong sums in a helper's C++ sweep).
    bool Copyable = !Ctx.getLangOpts().CPlusPlus || T->isDependentType() || T.isTriviallyCopyableType(Ctx);
    if (!Copyable) {
      if (KeptByAddress)
        AC.error(P->getLocation(),
                 "parameter '%0' of task function '%1' is a reference to type '%2', which is not trivially "
                 "copyable: a task gets the object's bytes, not what it holds elsewhere; pass a pointer to "
                 "the data instead (for a container, its data() and size, e.g. 'inout([n]%0)' for 'T *%0')",
                 P->getNameAsString(), FD->getNameAsString(), AC.printType(T));
      else
        AC.error(P->getLocation(),
                 "parameter '%0' of task function '%1' has type '%2', which is not trivially copyable, so "
                 "it cannot be copied into a task; pass a pointer to the data instead (for a container, "
                 "its data() and size, e.g. 'inout([n]%0)' for 'T *%0')",
                 P->getNameAsString(), FD->getNameAsString(), AC.printType(T));
      return false;
    }
  }
  return true;
}

std::string TaskBuilder::calleeSpelling(const clang::FunctionDecl *FD) const {
  if (!Ctx.getLangOpts().CPlusPlus) return FD->getNameAsString();
  return AC.scopeOf(FD->getDeclContext()) + FD->getNameAsString();
}

bool TaskBuilder::isConstData(const BaseInfo &B) const {
  clang::QualType T = B.Type;
  if (T->isPointerType())
    T = T->getPointeeType();
  else if (const clang::ArrayType *AT = Ctx.getAsArrayType(T))
    T = AT->getElementType();
  return Ctx.getBaseElementType(T).isConstQualified();
}

bool TaskBuilder::warnLikelyElementItems(const NameScope &S, const std::vector<PendingAccess> &Pending) {
  llvm::Regex Shifted(
      "^[[:space:]]*([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*([-+][[:space:]]*[0-9]+)?[[:space:]]*$");
  auto variableOf = [&](const PendingAccess &P, bool &IsShifted) -> std::string {
    const Item &It = *P.It;
    llvm::SmallVector<llvm::StringRef, 3> M;
    if (!It.isClassic() || It.Deref || It.Dims.size() != 1 || It.Dims[0].K != Dimension::Extent ||
        !P.Base.Type->isPointerType() || Ctx.getAsArrayType(P.Base.Type->getPointeeType()) ||
        !Shifted.match(It.Dims[0].First.Text, &M))
      return "";
    NameMeaning N = Names.resolveName(S, M[1].str());
    const auto *V = llvm::dyn_cast_or_null<clang::ValueDecl>(N.Decl);
    if ((N.K != NameMeaning::Param && N.K != NameMeaning::Local) || !V || !isScalar(V->getType())) return "";
    IsShifted = M.size() > 2 && !M[2].empty();
    return M[1].str();
  };
  bool Warned = false;
  for (const PendingAccess &P : Pending) {
    bool Shifted1 = false;
    std::string Var = variableOf(P, Shifted1);
    if (Var.empty() || !Shifted1) continue;
    for (const PendingAccess &Q : Pending) {
      bool Shifted2 = false;
      if (&Q == &P || Q.It->baseText() != P.It->baseText() || variableOf(Q, Shifted2) != Var) continue;
      const Dimension &D = P.It->Dims[0];
      AC.warning(
          P.Raw->locationOf(D.Offset),
          "'%0' is the %1 elements from %2[0] ('x[n]' counts elements in GPUSs), not element %1 as in "
          "OmpSs; with '%3' in the same directive this looks like OmpSs element dependences: for single "
          "elements write '%2[%1;1]' and '%4[%5;1]'",
          P.It->Text, D.First.Text, P.It->baseText(), Q.It->Text, Q.It->baseText(), Q.It->Dims[0].First.Text);
      Warned = true;
      break;
    }
  }
  return Warned;
}

void TaskBuilder::warnLoopCounterItems(const NameScope &S, const std::vector<PendingAccess> &Pending) {
  for (const PendingAccess &P : Pending) {
    if (Regions.pointerElementDepth(P.Base, *P.It)) continue;
    NameScope ItemScope = S;
    ItemScope.Raw = P.Raw;
    warnLoopCounterExtent(AC, Names, ItemScope, *P.It, LoopCounterUse::Task);
  }
}

bool TaskBuilder::buildCallTimeClauses(const ParsedDirective *Task, const ParsedDirective *Target,
                                       const NameScope &Scope, TaskCode &Code) {
  auto spelled = [](const ParsedDirective *P) {
    return std::string("#pragma ") + dialectName(P->Raw->Dialect) + " " + P->Raw->Text;
  };
  Code.Clauses = spelled(Task);
  if (Target && Target->Raw != Task->Raw) Code.Clauses += " / " + spelled(Target);
  Code.Clauses = sanitizeComment(Code.Clauses);
  const TaskDirective &D = Task->D.Task;
  Code.HighPriority = D.HighPriority;
  for (auto [Has, Expr, Out] :
       {std::tuple{D.HasPriority, &D.Priority, &Code.Priority}, std::tuple{D.HasFinal, &D.Final, &Code.Final},
        std::tuple{D.HasIf, &D.If, &Code.If}}) {
    if (!Has) continue;
    if (!Names.checkExprNames(Scope, *Expr)) return false;
    *Out = Names.qualified(Scope, *Expr);
  }
  return true;
}

bool TaskBuilder::buildTask(const clang::FunctionDecl *FD, const ParsedDirective *Task,
                            const ParsedDirective *Target, const NameScope &Scope,
                            const clang::CallExpr *Call, TaskCode &Code) {
  // Data-sharing clauses: a call-site task's arguments are evaluated at the
  // call (firstprivate) and what its pointers reach is reached in place
  // (shared), so there they change nothing; a declaration has no variables.
  if (const DataSharing &Sharing = Task->D.Task.Sharing; Sharing.any() && !Call) {
    AC.error(Task->Raw->locationOf(Sharing.FirstOffset),
             "clause '%0' is for a task on a statement; a task function's arguments are copied when the call "
             "happens (scalars by value), and pointers reach their data through input, output and inout; "
             "remove the clause",
             Sharing.FirstClause);
    return false;
  }
  Code.Label = taskLabel(FD, Task->D.Task);
  Code.Callee = calleeSpelling(FD);
  // A call-site task of a template's specialization: name it with its
  // arguments, which the trampoline's arguments may not deduce.
  if (Call) Code.Callee += Templates.specializationArgs(FD);
  Code.Cuda = Target && Target->D.Target.Device == DeviceKind::Cuda;
  if (!buildCallTimeClauses(Task, Target, Scope, Code)) return false;

  // By-value arguments at a call site: the variables passed as scalars.
  std::set<const clang::ValueDecl *> ByValueVars;
  if (Call)
    for (unsigned I = 0; I < Call->getNumArgs() && I < FD->getNumParams(); ++I)
      if (isScalar(FD->getParamDecl(I)->getType()))
        if (const auto *DR = llvm::dyn_cast<clang::DeclRefExpr>(Call->getArg(I)->IgnoreParenImpCasts()))
          ByValueVars.insert(DR->getDecl());

  std::vector<PendingAccess> Pending;
  if (!buildAccesses(Task, Target, Scope, ByValueVars, Pending, Code)) return false;
  return buildParams(FD, Call, Pending, Code);
}

bool TaskBuilder::buildAccesses(const ParsedDirective *Task, const ParsedDirective *Target,
                                const NameScope &Scope, const std::set<const clang::ValueDecl *> &ByValueVars,
                                std::vector<PendingAccess> &Pending, TaskCode &Code) {
  std::vector<const char *> PendingClause; ///< per pending access: the data clause first naming it
  bool Ok = true;
  auto addItem = [&](const NameScope &ItemScope, const Item &It, Direction Dir, const char *ClauseText,
                     bool FromCopy) {
    std::optional<BaseInfo> B = Names.resolveBase(ItemScope, It);
    if (!B) {
      Ok = false;
      return;
    }
    if (!Names.checkItemNames(ItemScope, It)) {
      Ok = false;
      return;
    }
    SourceLocation Loc = ItemScope.Raw->locationOf(It.Offset);
    if (It.Deref && !It.Dims.empty()) {
      AC.error(ItemScope.Raw->locationOf(It.Begin),
               "'%0' names data through a pointer stored in '%1': a task reaches its data through its "
               "parameters; pass '%2' to the task and name that parameter",
               It.Text, It.Name, It.Text.substr(1));
      Ok = false;
      return;
    }
    if (Regions.pointerElementDepth(*B, It) && It.Dims.size() > *Regions.pointerElementDepth(*B, It)) {
      AC.error(ItemScope.Raw->locationOf(It.Dims[*Regions.pointerElementDepth(*B, It)].Offset),
               "'%0' names data through the pointer stored in '%1': a task reaches its data through its "
               "parameters; pass that pointer to the task and name its parameter (items through stored "
               "pointers are for 'wait on')",
               It.Text, It.Name);
      Ok = false;
      return;
    }
    if (!It.Members.empty() && !B->Type->isPointerType()) {
      AC.error(
          ItemScope.Raw->locationOf(It.Members.back().Offset),
          "'%0' is not a pointer (type '%1'): a member named in a task's clause must point to the task's "
          "data; name the struct itself ('%2') to make its bytes the task's data",
          It.baseText(), AC.printType(B->Type), It.Name);
      Ok = false;
      return;
    }
    if (It.Deref && isScalar(B->Type)) {
      AC.error(ItemScope.Raw->locationOf(It.Begin),
               "'*%0': '%0' is not a pointer (type '%1'); '*p' names the object a pointer p points to",
               It.Name, AC.printType(B->Type));
      Ok = false;
      return;
    }
    bool ByValue = It.Members.empty() && ((Scope.TaskFn && !B->IsReference && isScalar(B->Type)) ||
                                          (B->Var && ByValueVars.count(B->Var)));
    if (ByValue) {
      if (!It.Dims.empty() || !It.Shape.empty() || !It.Regions.empty()) {
        unsigned At = !It.Shape.empty()  ? It.Begin
                      : !It.Dims.empty() ? It.Dims.front().Offset
                                         : It.Regions.front().Offset;
        AC.error(ItemScope.Raw->locationOf(At),
                 "%0 on '%1', which is a scalar passed by value (type '%2'); name it alone, in input(%1)",
                 !It.Shape.empty()  ? "a shape"
                 : !It.Dims.empty() ? "dimensions"
                                    : "regions",
                 It.Name, AC.printType(B->Type));
        Ok = false;
        return;
      }
      if (Dir != Direction::In) {
        AC.error(Loc, "'%0' is passed by value and cannot be named in '%1'; pass a pointer to it instead",
                 It.Name, ClauseText);
        Ok = false;
      }
      return; // an input scalar: copied into the task, no access
    }
    bool Writes = writes(Dir);
    if (Writes && isConstData(*B)) {
      AC.error(
          Loc,
          "'%0' is const data (type '%1') and cannot be named in '%2': the task's result would be copied "
          "back into read-only memory; remove 'const', or name it in input(...)",
          It.baseText(), AC.printType(B->Type), ClauseText);
      Ok = false;
      return;
    }
    for (size_t J = 0; J < Pending.size(); ++J) {
      PendingAccess &P = Pending[J];
      if (P.It->Text != It.Text) continue;
      if (FromCopy) {
        P.CopyIn |= reads(Dir);
        P.CopyOut |= writes(Dir);
      } else if (PendingClause[J]) {
        if (std::string(PendingClause[J]) == ClauseText)
          AC.warning(Loc, "'%0' is named twice in '%1'; name it once", It.Text, ClauseText);
        else
          AC.warning(
              Loc,
              "'%0' is named in both '%1' and '%2': the task reads and writes it (inout); name it once, "
              "in inout(%0)",
              It.Text, PendingClause[J], ClauseText);
        AC.note(P.Raw->locationOf(P.It->Offset), "named here first");
        P.Dir = combine(P.Dir, Dir);
      } else {
        P.Dir = combine(P.Dir, Dir);
        PendingClause[J] = ClauseText;
      }
      return;
    }
    PendingAccess P;
    P.It = &It;
    P.Raw = ItemScope.Raw;
    P.Base = *B;
    P.Dir = Dir;
    P.CopyIn = FromCopy && reads(Dir);
    P.CopyOut = FromCopy && writes(Dir);
    Pending.push_back(P);
    PendingClause.push_back(FromCopy ? nullptr : ClauseText);
  };
  for (const Clause &C : Task->D.Task.Clauses)
    for (const Item &It : C.Items)
      addItem(Scope, It, directionOf(C.Kind), clauseName(C.Kind), false);
  bool Explicit = Target && !Target->D.Target.Copies.empty();
  if (Target) {
    NameScope TargetScope = Scope;
    TargetScope.Raw = Target->Raw;
    for (const Clause &C : Target->D.Target.Copies)
      for (const Item &It : C.Items)
        addItem(TargetScope, It, directionOf(C.Kind), clauseName(C.Kind), true);
  }
  if (!Ok) return false;

  if (!warnLikelyElementItems(Scope, Pending)) warnLoopCounterItems(Scope, Pending);

  // Regions of one base are reached through one pointer: the runtime
  // keeps them in one storage (css_access::group).
  auto SameBase = [](const BaseInfo &A, const BaseInfo &B) {
    if ((!A.Members.empty() || !B.Members.empty()) && A.Name != B.Name) return false;
    if (A.ParamIndex >= 0 || B.ParamIndex >= 0) return A.ParamIndex == B.ParamIndex;
    return A.Var != nullptr && A.Var == B.Var;
  };
  for (const PendingAccess &P : Pending) {
    NameScope ItemScope = Scope;
    ItemScope.Raw = P.Raw;
    std::optional<RegionCode> R = Regions.buildRegion(ItemScope, *P.It, P.Base);
    if (!R) {
      Ok = false;
      continue;
    }
    AccessCode A;
    A.ItemText = sanitizeComment(P.It->Text);
    A.Region = *R;
    A.Dir = P.Dir;
    for (size_t J = 0; J < Pending.size(); ++J)
      if (SameBase(Pending[J].Base, P.Base)) {
        A.Group = static_cast<unsigned>(J) + 1;
        break;
      }
    A.Copy.Explicit = Explicit;
    A.Copy.In = P.CopyIn;
    A.Copy.Out = P.CopyOut;
    Code.Accesses.push_back(A);
  }
  return Ok;
}

void TaskBuilder::keepAddress(ParamCode &PC, clang::QualType Object) const {
  PC.ByReference = true;
  PC.RefType = AC.genType(Ctx.getPointerType(Object));
  PC.Storage = AC.genType(Ctx.getPointerType(Object), PC.Name);
}

bool TaskBuilder::buildParams(const clang::FunctionDecl *FD, const clang::CallExpr *Call,
                              const std::vector<PendingAccess> &Pending, TaskCode &Code) {
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    const clang::ParmVarDecl *P = FD->getParamDecl(I);
    ParamCode PC;
    PC.Name =
        P->getName().empty() ? std::string(rt::LocalPrefix) + "p" + std::to_string(I) : P->getNameAsString();
    clang::QualType Declared = P->getType();
    clang::QualType Object = Declared.getNonReferenceType();
    clang::QualType T = Object.getUnqualifiedType();
    bool IsRef = Declared->isReferenceType();
    PC.Declarator = AC.genType(T, PC.Name);
    PC.TypeName = AC.genType(T);
    if (IsRef) {
      PC.HelperDeclarator = AC.genType(Declared, PC.Name);
      if (!Object.isConstQualified()) keepAddress(PC, Object); // `T &x`
    }
    if (T->isPointerType() && T->getPointeeType()->isVariablyModifiedType()) {
      bool Const = Ctx.getBaseElementType(T->getPointeeType()).isConstQualified();
      PC.Storage = std::string(Const ? "const void *" : "void *") + PC.Name;
    }
    // `const T &x` named in a clause is the object too (below): the task
    // reads it when it runs, after the tasks that write it, as the
    // sequential program reads it at the call.
    const bool ConstRef = IsRef && Object.isConstQualified();
    const bool RefLike = PC.ByReference || ConstRef;
    bool ArgStorage = false;
    const clang::ValueDecl *ArgVar =
        Call && I < Call->getNumArgs() ? argVariable(Call->getArg(I), &ArgStorage) : nullptr;
    auto matches = [&](const BaseInfo &B) {
      return Call ? (ArgVar && B.Var == ArgVar) : B.ParamIndex == static_cast<int>(I);
    };
    bool Named = false;
    for (size_t A = 0; A < Pending.size(); ++A) {
      const BaseInfo &B = Pending[A].Base;
      if (!matches(B)) continue;
      Named = true;
      if (B.Members.empty()) {
        if ((T->isPointerType() || RefLike) && PC.Access < 0) PC.Access = static_cast<int>(A);
        continue;
      }
      std::string Path = relativePath(B);
      bool Seen = false;
      for (const ParamCode::MemberRebase &M : PC.Members)
        Seen |= M.Path == Path;
      if (!Seen) PC.Members.push_back({Path, AC.genType(B.Type), static_cast<int>(A)});
    }
    if (ConstRef && Named && PC.Members.empty() && !Object->isArrayType()) {
      // Copied at the call, as the sequential program reads it there: once
      // the tasks that write it have, or the copy holds the value from
      // before them (a `const double &` input right after the task that
      // writes it: found by a helper's C++ sweep, 2026-11-29).
      PC.WaitWrittenBeforeCopy = true;
      PC.Access = -1; // the task reads its copy
    } else if (ConstRef && Named) {
      // Members named (`input(b.v[0;n])`), or an array (`const double
      // (&a)[16]`, which cannot be copied by assignment): the task reaches
      // the data through the object, as through a `T &`.
      keepAddress(PC, Object);
    }
    PC.CopyableUnknown = T->isDependentType() && !T->isPointerType() && !PC.ByReference;
    if (!PC.Members.empty() && (T->isPointerType() || PC.ByReference)) {
      clang::QualType Struct = T->isPointerType() ? T->getPointeeType() : Object;
      if (Ctx.getLangOpts().CPlusPlus && !Struct.isTriviallyCopyableType(Ctx)) {
        AC.error(P->getLocation(),
                 "parameter '%0' of task '%1' points to a struct whose members are named in clauses, but its "
                 "type '%2' is not trivially copyable: the task runs on a copy of the struct whose pointer "
                 "members point to the task's data",
                 PC.Name, Code.Label, AC.printType(Struct));
        return false;
      }
      PC.ObjectType = AC.genType(Struct.getUnqualifiedType());
    }
    if (PC.ByReference && !Named) {
      AC.error(Call ? AC.fileLoc(Call->getArg(I)->getBeginLoc()) : P->getLocation(),
               "parameter '%0' of task '%1' is a reference (type '%2') that no clause names: the task would "
               "reach the caller's object with no dependencies; name it in input(...), output(...) or "
               "inout(...), or take it by value or by const reference",
               PC.Name, Code.Label, AC.printType(Declared));
      return false;
    }
    if (T->isPointerType() && !T->isFunctionPointerType() && !Named) {
      if (Call)
        AC.warning(
            AC.fileLoc(Call->getArg(I)->getBeginLoc()),
            "argument %0 of task '%1' (parameter '%2') is a pointer that no clause of this directive "
            "names: the task gets no dependencies on the data it points to and may run before that data "
            "is written, or while other tasks use it; name it in input(...), output(...) or inout(...)",
            std::to_string(I + 1), Code.Label, PC.Name);
      else
        AC.warning(P->getLocation(),
                   "parameter '%0' of task '%1' is a pointer that no clause names: the task gets no "
                   "dependencies on the data it points to and may run before that data is written, or while "
                   "other tasks use it; name it in input(...), output(...) or inout(...)",
                   PC.Name, Code.Label);
    }
    Code.Params.push_back(PC);
  }
  return true;
}

} // namespace gpuss
