//===- CodeGen.h - Print the generated C/C++ code ---------------------------===//
//
// Text only: given the resolved model (TaskModel.h), print the argument
// structs, trampolines, submit code and synchronisation calls. Every runtime
// symbol comes from RuntimeSymbols.h.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_CODEGEN_H
#define GPUSS_TRANSLATOR_CODEGEN_H

#include "TaskModel.h"

#include <string>
#include <vector>

namespace gpuss {

struct CodeGenOptions {
  bool CPlusPlus = false;
};

/// `#include "gpuss.h"` and a #line back to line 1 of `File`.
std::string genPrologue(const std::string &File);

/// `#line Line "File"`, on a line of its own.
std::string genLineDirective(unsigned Line, const std::string &File);

/// The argument struct and the trampoline `__css_body_<id>`; with
/// `SubmitHelper`, also `__css_submit_<id>(params..., file, line)`, which a
/// call of a function annotated at its declaration becomes.
std::string genTaskSupport(const TaskCode &Task, bool SubmitHelper, const CodeGenOptions &Opts);

/// The name a call of a declaration-annotated function is renamed to.
std::string submitHelperName(const TaskCode &Task, const CodeGenOptions &Opts);

/// The trailing arguments appended to such a call.
std::string genSubmitHelperExtraArgs(const std::string &File, unsigned Line, bool HasArgs);

/// The statement a call-site annotated call becomes (no trailing ';').
/// `ArgTexts` are the call's arguments as written.
std::string genCallSiteSubmit(const TaskCode &Task, const std::vector<std::string> &ArgTexts,
                              const std::string &File, unsigned Line, const CodeGenOptions &Opts);

std::string genBarrier();
std::string genStart();
std::string genFinish();
std::string genWaitOn(const std::vector<RegionCode> &Regions, const std::string &File, unsigned Line);
/// css_release of `Regions`: their tasks finish, readers too, and the
/// runtime forgets them (a local that stops living).
std::string genRelease(const std::vector<RegionCode> &Regions);

/// The one-pass loop header an OpenMP critical or atomic construct becomes:
/// its statement, the loop's body, runs holding lock `LockName`.
std::string genCriticalHeader(const std::string &LockName);
/// The one-pass loop header of an OpenMP construct whose end is a barrier:
/// the barrier is the loop's step, after its statement. `Id` tells the
/// loop variables of nested constructs apart (-Wshadow).
std::string genRegionHeader(unsigned Id);

/// `Text` wrapped in a C comment.
std::string genComment(const std::string &Text);

/// `Name` as a C string literal.
std::string cStringLiteral(const std::string &Name);

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_CODEGEN_H
