//===- CodeGen.cpp - Print the generated C/C++ code -------------------------===//
#include "CodeGen.h"

#include "RuntimeSymbols.h"

namespace gpuss {
namespace {

std::string argsStruct(const TaskCode &Task, const CodeGenOptions &Opts, bool Qualified) {
  std::string Name = std::string(rt::ArgsStructPrefix) + Task.Id + Task.TemplateArgs;
  if (Opts.CPlusPlus) return Qualified ? Task.Scope + Name : Name;
  return "struct " + Name;
}

/// "template <...>\n" before each generated entity of a template task.
std::string templateHead(const TaskCode &Task) {
  return Task.TemplateHead.empty() ? std::string() : Task.TemplateHead + "\n";
}

std::string local(const char *Name) {
  return std::string(rt::LocalPrefix) + Name;
}

/// CSS_IN, CSS_OUT or CSS_INOUT: the only place a direction becomes text.
const char *directionSymbol(Direction D) {
  switch (D) {
  case Direction::In:
    return rt::DirIn;
  case Direction::Out:
    return rt::DirOut;
  case Direction::InOut:
    return rt::DirInout;
  }
  return rt::DirInout;
}

/// CSS_COPY_DEFAULT, or CSS_COPY_EXPLICIT with the copies the target names.
std::string copySymbols(const CopyFlags &Copy) {
  if (!Copy.Explicit) return rt::CopyDefault;
  std::string S = rt::CopyExplicit;
  if (Copy.In) S += std::string(" | ") + rt::CopyIn;
  if (Copy.Out) S += std::string(" | ") + rt::CopyOut;
  return S;
}

/// Statements that fill the descriptor and submit it. `ArgValue(i)` spells
/// the value of argument i.
template <typename ArgFn>
std::string genSubmitBody(const TaskCode &Task, const std::string &Indent, ArgFn ArgValue,
                          const std::string &FileExpr, const std::string &LineExpr,
                          const CodeGenOptions &Opts) {
  std::string Args = local("args"), Acc = local("acc"), Desc = local("desc");
  size_t NumAcc = Task.Accesses.size();
  std::string S;
  S += Indent + argsStruct(Task, Opts, true) + " " + Args + ";\n";
  S += Indent + rt::Access + " " + Acc + "[" + std::to_string(NumAcc ? NumAcc : 1) + "];\n";
  S += Indent + rt::TaskDesc + " " + Desc + ";\n";
  if (Task.Params.empty()) S += Indent + Args + "." + local("unused") + " = 0;\n";
  for (size_t I = 0; I < Task.Params.size(); ++I) {
    if (Task.Params[I].WaitWrittenBeforeCopy) {
      const std::string Value = ArgValue(I), Region = local("written");
      S += Indent + "{ " + rt::Region + " " + Region + " = " + rt::Contiguous + "(&" + Value + ", sizeof " +
           Value + "); " + rt::WaitWritten + "(&" + Region + ", 1); }\n";
    }
    S += Indent + Args + "." + Task.Params[I].Name + " = " + ArgValue(I) + ";\n";
  }
  for (size_t I = 0; I < NumAcc; ++I) {
    const AccessCode &A = Task.Accesses[I];
    std::string E = Acc + "[" + std::to_string(I) + "]";
    // The region's expressions are the directive's: its line, with the
    // item as a comment.
    S += (Task.Pin.empty() ? Indent : Task.Pin + " ") + "/* " + A.ItemText + ": " + directionSymbol(A.Dir) +
         " */\n";
    if (A.Region.contiguous()) {
      S += Indent + E + ".region = " + rt::Contiguous + "(" + A.Region.Base + ", " + A.Region.Bytes + ");\n";
    } else {
      S += Indent + E + ".region.base = " + A.Region.Base + ";\n";
      S += Indent + E + ".region.row_bytes = " + A.Region.RowBytes + ";\n";
      S += Indent + E + ".region.rows = " + A.Region.Rows + ";\n";
      S += Indent + E + ".region.stride = " + A.Region.Stride + ";\n";
    }
    S += Indent + E + ".direction = " + directionSymbol(A.Dir) + ";\n";
    S += Indent + E + ".copy = " + copySymbols(A.Copy) + ";\n";
    S += Indent + E + ".group = " + std::to_string(A.Group) + ";\n";
  }
  S += Indent + Desc + ".abi_version = " + rt::AbiVersion + ";\n";
  S += Indent + Desc + ".device_kind = " + (Task.Cuda ? rt::DeviceCuda : rt::DeviceSmp) + ";\n";
  // Flags from expressions of the directive are evaluated here: their
  // errors point at the directive's line.
  std::string Flags = Task.HighPriority ? rt::HighPriority : "0";
  bool FromDirective = false;
  if (!Task.HighPriority && !Task.Priority.empty()) {
    Flags = "((" + Task.Priority + ") > 0 ? " + rt::HighPriority + " : 0)";
    FromDirective = true;
  }
  if (!Task.Final.empty()) {
    Flags += " | ((" + Task.Final + ") ? " + rt::Final + " : 0)";
    FromDirective = true;
  }
  if (FromDirective && !Task.Pin.empty()) S += Task.Pin + "\n";
  S += Indent + Desc + ".flags = " + Flags + ";\n";
  S += Indent + Desc + ".num_accesses = " + std::to_string(NumAcc) + ";\n";
  S += Indent + Desc + ".accesses = " + Acc + ";\n";
  S += Indent + Desc + ".body = " + Task.Scope + rt::BodyPrefix + Task.Id + Task.TemplateArgs + ";\n";
  S += Indent + Desc + ".args = &" + Args + ";\n";
  S += Indent + Desc + ".args_size = sizeof " + Args + ";\n";
  if (Task.TemplateHead.empty()) {
    S += Indent + Desc + ".label = " + cStringLiteral(Task.Label) + ";\n";
  } else {
    // A static of the template is one object per specialization: the
    // runtime tells labels apart by address, so each specialization learns
    // its own durations while all of them print the function's name.
    S += Indent + "static const char " + local("label") + "[] = " + cStringLiteral(Task.Label) + ";\n";
    S += Indent + Desc + ".label = " + local("label") + ";\n";
  }
  S += Indent + Desc + ".file = " + FileExpr + ";\n";
  S += Indent + Desc + ".line = " + LineExpr + ";\n";
  S += Indent + rt::Submit + "(&" + Desc + ");\n";
  if (!Task.If.empty() && NumAcc > 0) {
    // if(e) false: an undeferred task, whose call returns once it has run
    // (OpenMP); waiting for its data is waiting for it.
    std::string Wait = local("undeferred"), N = std::to_string(NumAcc);
    if (!Task.Pin.empty()) S += Task.Pin + "\n";
    S += Indent + "if (!(" + Task.If + ")) {\n";
    S += Indent + "  " + rt::Region + " " + Wait + "[" + N + "];\n";
    for (size_t I = 0; I < NumAcc; ++I)
      S += Indent + "  " + Wait + "[" + std::to_string(I) + "] = " + Acc + "[" + std::to_string(I) +
           "].region;\n";
    S += Indent + "  " + rt::WaitOn + "(" + Wait + ", " + N + ");\n";
    S += Indent + "}\n";
  }
  return S;
}

} // namespace

std::string cStringLiteral(const std::string &Name) {
  std::string S = "\"";
  for (char C : Name) {
    if (C == '"' || C == '\\') S += '\\';
    if (C == '\n') {
      S += "\\n";
      continue;
    }
    S += C;
  }
  return S + "\"";
}

std::string genPrologue(const std::string &File) {
  return std::string("#include ") + cStringLiteral(rt::Header) + " /* added by gpuss-translate */\n" +
         genLineDirective(1, File);
}

std::string genLineDirective(unsigned Line, const std::string &File) {
  return "#line " + std::to_string(Line) + " " + cStringLiteral(File) + "\n";
}

std::string genComment(const std::string &Text) {
  // Neither '*/' nor '/*' (a comment on the pragma line) may stay whole.
  std::string Safe;
  for (size_t I = 0; I < Text.size(); ++I) {
    Safe += Text[I];
    if ((Text[I] == '*' || Text[I] == '/') && I + 1 < Text.size() &&
        Text[I + 1] == (Text[I] == '*' ? '/' : '*'))
      Safe += ' ';
  }
  return "/* " + Safe + " */";
}

std::string submitHelperName(const TaskCode &Task, const CodeGenOptions &Opts) {
  return (Opts.CPlusPlus ? Task.Scope : std::string()) + rt::SubmitPrefix + Task.Id;
}

std::string genSubmitHelperExtraArgs(const std::string &File, unsigned Line, bool HasArgs) {
  return std::string(HasArgs ? ", " : "") + cStringLiteral(File) + ", " + std::to_string(Line);
}

std::string genTaskSupport(const TaskCode &Task, bool SubmitHelper, const CodeGenOptions &Opts) {
  std::string S;
  S += "/* gpuss: task " + Task.Label + (Task.Clauses.empty() ? "" : ": " + Task.Clauses) + " */\n";
  if (!Task.Outlined.empty()) S += Task.Outlined + Task.Pin + "\n";
  // The argument struct: every argument, by value.
  S += templateHead(Task) + "struct " + rt::ArgsStructPrefix + Task.Id + " {\n";
  if (Task.Params.empty()) S += "  char " + local("unused") + ";\n";
  for (const ParamCode &P : Task.Params)
    S += "  " + (P.Storage.empty() ? P.Declarator : P.Storage) + ";\n";
  // The builtin, not <type_traits>: the generated code includes nothing else.
  for (const std::string &Type : Task.DependentParamTypes)
    S += "  static_assert(__is_trivially_copyable(" + Type + "), " +
         cStringLiteral("task " + Task.Label + ": a parameter of type '" + Type +
                        "' must be trivially copyable to be copied into a task") +
         ");\n";
  S += "};\n";
  // The trampoline: unpack, rebase pointers, call the original function.
  std::string Env = local("env"), A = local("a");
  S += templateHead(Task) + "static void " + rt::BodyPrefix + Task.Id + "(void *" + local("argp") +
       ", const " + rt::TaskEnv + " *" + Env + ") {\n";
  S += "  " + argsStruct(Task, Opts, false) + " *" + A + " = (" + argsStruct(Task, Opts, false) + " *)" +
       local("argp") + ";\n";
  bool UsesEnv = false;
  auto translate = [&](int Access, const std::string &Pointer) {
    UsesEnv = true;
    return std::string(rt::Translate) + "(" + Env + ", " + std::to_string(Access) + ", " + Pointer + ")";
  };
  std::string Prepare; // struct members rebased before the call
  std::string Call = "  " + Task.Callee + "(";
  for (size_t I = 0; I < Task.Params.size(); ++I) {
    const ParamCode &P = Task.Params[I];
    std::string Member = A + "->" + P.Name;
    std::string Value;
    if (P.ByReference) {
      Value = P.Access >= 0 ? "*(" + P.RefType + ")" + translate(P.Access, Member) : "*" + Member;
    } else if (P.Access >= 0) {
      Value = (P.Storage.empty() ? "(" + P.TypeName + ")" : std::string()) + translate(P.Access, Member);
    } else {
      Value = Member;
    }
    if (!P.Members.empty()) {
      // The task's own copy of the struct, whose pointer members point to
      // where the task's data lives for this execution.
      std::string Object = Member;
      if (!P.ObjectType.empty()) {
        // A pointer's struct is copied from what it points to, a
        // reference's from the object it names (Value is that object).
        Object = local("o_") + P.Name;
        Prepare += "  " + P.ObjectType + " " + Object + " = " + (P.ByReference ? "" : "*") + Value + ";\n";
        Value = (P.ByReference ? "" : "&") + Object;
      }
      for (const ParamCode::MemberRebase &M : P.Members)
        Prepare +=
            "  " + Object + M.Path + " = (" + M.TypeName + ")" + translate(M.Access, Object + M.Path) + ";\n";
    }
    if (I) Call += ",\n      ";
    Call += Value;
  }
  Call += ");\n";
  if (!UsesEnv) S += "  (void)" + Env + ";\n";
  if (Task.Params.empty()) S += "  (void)" + A + ";\n";
  S += Prepare;
  S += Call;
  S += "}\n";
  if (!SubmitHelper) return S;
  // The submit helper: a call of the task function becomes a call of this.
  std::string File = local("file"), Line = local("line");
  S += templateHead(Task) + rt::SubmitHelperAttributes + " static void " + rt::SubmitPrefix + Task.Id + "(";
  for (const ParamCode &P : Task.Params)
    S += (P.HelperDeclarator.empty() ? P.Declarator : P.HelperDeclarator) + ", ";
  S += "const char *" + File + ", int " + Line + ") {\n";
  S += genSubmitBody(
      Task, "  ", [&](size_t I) { return (Task.Params[I].ByReference ? "&" : "") + Task.Params[I].Name; },
      File, Line, Opts);
  S += "}\n";
  return S;
}

std::string genCallSiteSubmit(const TaskCode &Task, const std::vector<std::string> &ArgTexts,
                              const std::string &File, unsigned Line, const CodeGenOptions &Opts) {
  std::string S = "do { /* gpuss: task " + Task.Label + ": " + Task.Clauses + " */\n";
  S += genSubmitBody(
      Task, "  ", [&](size_t I) { return (Task.Params[I].ByReference ? "&(" : "(") + ArgTexts[I] + ")"; },
      cStringLiteral(File), std::to_string(Line), Opts);
  S += "} while (0)";
  return S;
}

std::string genBarrier() {
  return std::string(rt::Barrier) + "();";
}
std::string genCriticalHeader(const std::string &LockName) {
  std::string Name = cStringLiteral(LockName);
  return std::string("for (") + rt::CriticalEnter + "(" + Name + "); " + rt::CriticalHeld + "(" + Name +
         "); " + rt::CriticalLeave + "(" + Name + "))";
}
std::string genRegionHeader(unsigned Id) {
  std::string Once = std::string(rt::LocalPrefix) + "omp_region" + std::to_string(Id);
  return "for (int " + Once + " = 1; " + Once + "; " + Once + " = 0, " + rt::Barrier + "())";
}
std::string genStart() {
  return std::string(rt::Start) + "();";
}
std::string genFinish() {
  return std::string(rt::Finish) + "();";
}

namespace {

/// A call of `Function(Leading regions, count)` over `Regions`, as one
/// statement; `Leading` is empty or ends with ", ".
std::string genRegionsCall(const char *Function, const std::vector<RegionCode> &Regions,
                           const std::string &Leading = "") {
  std::string R = local("wait");
  std::string S = "do { " + std::string(rt::Region) + " " + R + "[" + std::to_string(Regions.size()) + "]; ";
  for (size_t I = 0; I < Regions.size(); ++I) {
    const RegionCode &G = Regions[I];
    std::string E = R + "[" + std::to_string(I) + "]";
    if (G.contiguous()) {
      S += E + " = " + rt::Contiguous + "(" + G.Base + ", " + G.Bytes + "); ";
    } else {
      S += E + ".base = " + G.Base + "; " + E + ".row_bytes = " + G.RowBytes + "; " + E +
           ".rows = " + G.Rows + "; " + E + ".stride = " + G.Stride + "; ";
    }
  }
  S += std::string(Function) + "(" + Leading + R + ", " + std::to_string(Regions.size()) + "); } while (0);";
  return S;
}

} // namespace

std::string genWaitOn(const std::vector<RegionCode> &Regions, const std::string &File, unsigned Line) {
  return genRegionsCall(rt::WaitOnAt, Regions, cStringLiteral(File) + ", " + std::to_string(Line) + ", ");
}

std::string genRelease(const std::vector<RegionCode> &Regions) {
  return genRegionsCall(rt::Release, Regions);
}

} // namespace gpuss
