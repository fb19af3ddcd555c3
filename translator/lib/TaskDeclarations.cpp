//===- TaskDeclarations.cpp - Task directives on function declarations -----===//
#include "TaskDeclarations.h"

#include <algorithm>
#include <cctype>

namespace gpuss {

namespace {

/// An expression with the parameters of FD named by position, without
/// whitespace: "$0*2" for "n * 2".
std::string canonical(const ExprText &E, const clang::FunctionDecl *FD) {
  std::string Out;
  size_t At = 0;
  for (const ExprName &N : E.Names) {
    size_t Pos = N.Offset - E.Offset;
    if (Pos < At || Pos > E.Text.size()) continue;
    Out += E.Text.substr(At, Pos - At);
    std::string Name = N.Name;
    for (unsigned I = 0; I < FD->getNumParams(); ++I)
      if (FD->getParamDecl(I)->getName() == N.Name) Name = "$" + std::to_string(I);
    Out += Name;
    At = Pos + N.Name.size();
  }
  Out += E.Text.substr(std::min(At, E.Text.size()));
  Out.erase(std::remove_if(Out.begin(), Out.end(), [](char C) { return std::isspace(C); }), Out.end());
  return Out;
}

std::string canonical(const Item &It, const clang::FunctionDecl *FD) {
  std::string Out;
  for (const std::string &T : It.Tokens) {
    std::string C = T;
    for (unsigned I = 0; I < FD->getNumParams(); ++I)
      if (FD->getParamDecl(I)->getName() == T) C = "$" + std::to_string(I);
    Out += C + " ";
  }
  return Out;
}

/// `input(n)` of a parameter passed by value: it changes nothing.
bool isByValueParam(const clang::FunctionDecl *FD, const Item &It) {
  if (!It.isClassic() || !It.Dims.empty()) return false;
  for (const clang::ParmVarDecl *P : FD->parameters())
    if (P->getName() == It.Name) return isScalar(P->getType());
  return false;
}

} // namespace

void TaskDeclarations::attach(ParsedDirective *Task, ParsedDirective *Target, const clang::FunctionDecl *FD,
                              const clang::FunctionTemplateDecl *Template) {
  if (!Builder.checkTaskFunction(FD, FD->getLocation())) return;
  const clang::FunctionDecl *Canon = FD->getCanonicalDecl();
  DirectiveSummary Summary = summarize(FD, Task, Target);
  if (auto It = DeclTaskSummary.find(Canon); It != DeclTaskSummary.end()) {
    if (checkSameDirectives(FD, It->second, Summary)) AC.commentOut(Task, Target);
    return; // the same directives on another declaration
  }
  NameScope Scope;
  Scope.Raw = Task->Raw;
  Scope.TaskFn = FD;
  TaskCode Code;
  if (!Builder.buildTask(FD, Task, Target, Scope, nullptr, Code)) return;
  if (Template && !Templates.describeTemplate(Template, Code)) return;
  Code.Id = Tasks.uniqueId(FD->getNameAsString());
  Tasks.DeclTasks[Canon] = Tasks.size();
  DeclTaskSummary[Canon] = std::move(Summary);
  if (Code.Cuda) Tasks.CudaFunctions.insert(Canon);
  Code.Pin = AC.pinOf(*Task->Raw);
  Tasks.add(std::move(Code), Task->Raw, FD);
  AC.commentOut(Task, Target);
}

TaskDeclarations::DirectiveSummary TaskDeclarations::summarize(const clang::FunctionDecl *FD,
                                                               const ParsedDirective *Task,
                                                               const ParsedDirective *Target) const {
  DirectiveSummary S;
  S.Raw = Task->Raw;
  // Data items: one direction each (input and output of one item is inout).
  std::map<std::string, SummaryEntry> Items;
  std::map<std::string, Direction> Directions;
  for (const Clause &C : Task->D.Task.Clauses) {
    if (C.Kind == ClauseKind::HighPriority) {
      S.Entries.push_back({"highpriority", "highpriority", Task->Raw, C.Offset});
    } else if (C.Kind == ClauseKind::Priority) {
      S.Entries.push_back({"priority " + canonical(Task->D.Task.Priority, FD),
                           "priority(" + Task->D.Task.Priority.Text + ")", Task->Raw, C.Offset});
    } else if (C.Kind == ClauseKind::Final) {
      S.Entries.push_back({"final " + canonical(Task->D.Task.Final, FD),
                           "final(" + Task->D.Task.Final.Text + ")", Task->Raw, C.Offset});
    } else if (C.Kind == ClauseKind::If) {
      S.Entries.push_back(
          {"if " + canonical(Task->D.Task.If, FD), "if(" + Task->D.Task.If.Text + ")", Task->Raw, C.Offset});
    } else if (C.Kind == ClauseKind::Label) {
      S.Entries.push_back(
          {"label " + Task->D.Task.Label, "label(" + Task->D.Task.Label + ")", Task->Raw, C.Offset});
    } else {
      Direction Dir = directionOf(C.Kind);
      for (const Item &It : C.Items) {
        if (C.Kind == ClauseKind::Input && isByValueParam(FD, It)) continue; // copied anyway
        std::string Key = canonical(It, FD);
        auto [Pos, New] = Directions.emplace(Key, Dir);
        if (!New) Pos->second = combine(Pos->second, Dir);
        if (New) Items[Key] = {"", It.Text, Task->Raw, It.Offset};
      }
    }
  }
  for (auto &[Key, Entry] : Items) {
    std::string Clause = clauseName(dataClauseOf(Directions[Key]));
    Entry.Key = Clause + " " + Key;
    Entry.Shown = Clause + "(" + Entry.Shown + ")";
    S.Entries.push_back(Entry);
  }
  if (Target && Target->D.Target.Device == DeviceKind::Cuda)
    S.Entries.push_back({"device cuda", "target device(cuda)", Target->Raw, Target->D.Offset});
  if (Target)
    for (const Clause &C : Target->D.Target.Copies)
      for (const Item &It : C.Items)
        S.Entries.push_back({std::string(clauseName(C.Kind)) + " " + canonical(It, FD),
                             std::string(clauseName(C.Kind)) + "(" + It.Text + ")", Target->Raw, It.Offset});
  std::sort(S.Entries.begin(), S.Entries.end());
  return S;
}

bool TaskDeclarations::checkSameDirectives(const clang::FunctionDecl *FD, const DirectiveSummary &First,
                                           const DirectiveSummary &Here) {
  auto missingFrom = [](const DirectiveSummary &A, const DirectiveSummary &B) -> const SummaryEntry * {
    for (const SummaryEntry &E : A.Entries)
      if (!std::binary_search(B.Entries.begin(), B.Entries.end(), E)) return &E;
    return nullptr;
  };
  const SummaryEntry *OnlyHere = missingFrom(Here, First);
  const SummaryEntry *OnlyThere = missingFrom(First, Here);
  if (!OnlyHere && !OnlyThere) return true;
  std::string Name = FD->getNameAsString();
  if (OnlyHere && OnlyThere) {
    AC.error(OnlyHere->Raw->locationOf(OnlyHere->Offset),
             "the task directives on two declarations of '%0' differ: this one says '%1' where the other "
             "says '%2'; write the same clauses on both, or annotate one declaration only",
             Name, OnlyHere->Shown, OnlyThere->Shown);
    AC.note(OnlyThere->Raw->locationOf(OnlyThere->Offset), "the other declaration's directive says '%0' here",
            OnlyThere->Shown);
  } else if (OnlyHere) {
    AC.error(OnlyHere->Raw->locationOf(OnlyHere->Offset),
             "the task directives on two declarations of '%0' differ: this one says '%1', the other does "
             "not; write the same clauses on both, or annotate one declaration only",
             Name, OnlyHere->Shown);
    AC.note(First.Raw->NameLoc, "the other declaration's directive is here");
  } else {
    AC.error(Here.Raw->NameLoc,
             "the task directives on two declarations of '%0' differ: this one does not say '%1', the "
             "other does; write the same clauses on both, or annotate one declaration only",
             Name, OnlyThere->Shown);
    AC.note(OnlyThere->Raw->locationOf(OnlyThere->Offset), "the other declaration's directive says '%0' here",
            OnlyThere->Shown);
  }
  return false;
}

} // namespace gpuss
