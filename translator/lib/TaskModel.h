//===- TaskModel.h - What the generated code must do ------------------------===//
//
// The result of the analysis, in terms the code generator can print without
// looking at the AST again: resolved accesses as C expressions, the parameter
// list, where each piece of text goes.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_TASKMODEL_H
#define GPUSS_TRANSLATOR_TASKMODEL_H

#include "clang/Basic/SourceLocation.h"

#include <string>
#include <vector>

namespace gpuss {

/// How a task uses the data of an access: reads it (input), writes it
/// (output) or both (inout). CodeGen spells it (CSS_IN, CSS_OUT, CSS_INOUT).
enum class Direction { In, Out, InOut };

/// The direction of data named twice (in input and output, in two clauses):
/// read and written unless both say the same.
constexpr Direction combine(Direction A, Direction B) {
  return A == B ? A : Direction::InOut;
}
constexpr bool reads(Direction D) {
  return D != Direction::Out;
}
constexpr bool writes(Direction D) {
  return D != Direction::In;
}

/// What the runtime copies for an access between the host and a device, a
/// concept apart from the direction: what the direction needs
/// (CSS_COPY_DEFAULT) unless the task's target has copy clauses; then only
/// what those clauses name (CSS_COPY_EXPLICIT, with CSS_COPY_IN and
/// CSS_COPY_OUT). CodeGen spells it.
struct CopyFlags {
  bool Explicit = false; ///< the target has copy clauses
  bool In = false;       ///< copy_in or copy_inout names the item: copied to the device
  bool Out = false;      ///< copy_out or copy_inout names the item: copied back
};

/// A css_region as C expressions. Rows == "1" means contiguous (Bytes).
struct RegionCode {
  std::string Base;
  std::string Bytes;    ///< contiguous regions
  std::string RowBytes; ///< strided regions
  std::string Rows = "1";
  std::string Stride;
  bool contiguous() const { return Rows == "1"; }
};

struct AccessCode {
  std::string ItemText; ///< the item as written, safe in a comment
  RegionCode Region;
  Direction Dir = Direction::In;
  CopyFlags Copy;
  /// css_access::group: 1 + the index of the first access with the same
  /// base, so that the regions one pointer reaches share one storage.
  unsigned Group = 0;
};

struct ParamCode {
  std::string Name;       ///< parameter (and argument struct member) name
  std::string Declarator; ///< the parameter type with its name, e.g. "double (*a)[4]"
  std::string TypeName;   ///< the parameter type alone, e.g. "double (*)[4]"
  /// The argument struct's member when it cannot have the parameter's type:
  /// "void *a" for a C99 variable-length array parameter (`double a[n][n]`,
  /// whose type names other parameters); the trampoline passes it uncast.
  std::string Storage;
  /// The submit helper's parameter when it differs from the member: the
  /// declared `const T &x` of a reference parameter.
  std::string HelperDeclarator;
  int Access = -1;              ///< the access its pointer is rebased with, or -1
  bool CopyableUnknown = false; ///< depends on template parameters, not a pointer: copyable?
  /// A `T &` parameter named in a clause: the task keeps a pointer to the
  /// object (Storage "T *x"); RefType is "T *" (for an array of T,
  /// "T (*)[N]", the type the body's cast needs).
  bool ByReference = false;
  /// `const T &` named whole in a clause: its value is copied at the call,
  /// once the tasks that write it have (css_wait_written).
  bool WaitWrittenBeforeCopy = false;
  std::string RefType;
  /// Pointer members of a struct the parameter is (by value) or points to
  /// (`s.data`, `p->r`): rebased in the task's copy of the struct. Path is
  /// relative to the struct (".data", ".m.r"); ObjectType is the struct's
  /// type when the parameter points to it (the trampoline copies it).
  struct MemberRebase {
    std::string Path;
    std::string TypeName;
    int Access = -1;
  };
  std::vector<MemberRebase> Members;
  std::string ObjectType;
};

/// One task function as the generated code sees it (a declaration pragma),
/// or one call (a call-site pragma).
struct TaskCode {
  std::string Label;   ///< the function's name
  std::string Callee;  ///< how the trampoline spells the function
  std::string Id;      ///< unique suffix of generated names
  std::string Scope;   ///< C++ qualifier of the generated names ("" or "::ns::")
  std::string Clauses; ///< the directive text, for a comment
  bool Cuda = false;
  bool HighPriority = false;
  std::string Priority; ///< priority(e): e, evaluated at the call (high priority when > 0)
  std::string Final;    ///< final(e): e, evaluated at the call (its body's tasks inline when true)
  std::string If;       ///< if(e): e, evaluated at the call (the call waits for the task when false)
  /// A function template annotated at its declaration: the generated
  /// struct, trampoline and submit helper are templates with the same
  /// parameters, e.g. Head "template <typename T, int N>", Args "<T, N>".
  std::string TemplateHead;
  std::string TemplateArgs;
  /// Parameter types that depend on template parameters: whether they can
  /// be copied into a task is asserted when the template is instantiated.
  std::vector<std::string> DependentParamTypes;
  std::vector<ParamCode> Params;
  std::vector<AccessCode> Accesses;
  /// `#line N "file"` of the directive (no newline), before each generated
  /// line that holds the directive's expressions: an error in one points at
  /// the directive, wherever the code stands.
  std::string Pin;
  /// An outlined task block (OmpSs): the static function the trampoline
  /// calls, written before the task's other code.
  std::string Outlined;
};

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_TASKMODEL_H
