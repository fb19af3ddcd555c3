//===- RegionBuilder.h - The region an item names --------------------------===//
//
// Owns the meaning of items as memory: from an item of a clause or of
// `wait on` and what its base is (NameLookup.h), the css_region it names as
// C expressions (TaskModel.h). Every item form of the language is here:
// plain StarSs items and sections (`a`, `a[n][m]`, `a[lo;len]`, `a[lo:hi]`,
// strided blocks of pointers to arrays), OmpSs shaping expressions
// (`[n][m]a`, `[n]a[i;1]`) and pointees (`*p`, `*p[i]`), SMPSs regions
// (`a{lo:len}{}`), and in `wait on` the data a pointer stored in an array
// points to (`C[t]`). Sizes come from the item, or from the base's type;
// items the types cannot give a size to, or that are not one block of rows,
// are reported.
//
// Relies on NameLookup (names spelt for the generated code), SizeChecks
// (constant sizes are probed as regions are built) and AnalysisContext.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_REGIONBUILDER_H
#define GPUSS_TRANSLATOR_REGIONBUILDER_H

#include "AnalysisContext.h"
#include "NameLookup.h"
#include "SizeChecks.h"
#include "TaskModel.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuss {

class RegionBuilder {
public:
  RegionBuilder(AnalysisContext &AC, NameResolver &Names, SizeChecker &Sizes)
      : AC(AC), Ctx(AC.Ctx), Names(Names), Sizes(Sizes) {}

  /// The region an item names; its expressions are spelt for the place of
  /// the generated code (names of namespaces and classes qualified).
  std::optional<RegionCode> buildRegion(const NameScope &S, const Item &Written, const BaseInfo &B);

  /// The number of subscripts of a plain item that select a pointer stored
  /// in an array or pointed to (`C[t]` for `double *C[NT]`, `m[i][j]` for
  /// `float *m[NB][NB]`), if any.
  std::optional<size_t> pointerElementDepth(const BaseInfo &B, const Item &It) const;

  /// In `wait on`, an item that selects a pointer stored in an array is the
  /// data it points to, as SMPSs's `wait on(matrix[i][j])` of a tile:
  /// `C[t]` is the object C[t] points to (the tasks whose data contain its
  /// first element, so a whole tile named by the tasks), and `C[t][lo;len]`
  /// (OmpSs) a section of it. Waiting on the pointers themselves is
  /// `wait on(C)`.
  std::optional<RegionCode> buildIndirectRegion(const NameScope &S, const Item &Written, const BaseInfo &B);

private:
  /// The extent of an array type as a C expression: its size, or the size
  /// expression of a variable-length array; "" where unknown (`[]`, `[*]`).
  std::string extentOf(const clang::ArrayType *AT) const;

  /// `*p`: the object p points to (`sizeof *p` bytes); `*p[i]`: the object
  /// the pointer p[i] points to (C subscripts).
  std::optional<RegionCode> buildDerefRegion(const NameScope &S, const Item &It, const BaseInfo &B);

  /// The shape of what an item's base points to, as its type gives it.
  struct TypeShape {
    std::vector<std::string> Dims; ///< extents, outermost first; Dims[0] may be "" (unknown)
    unsigned Depth = 0;            ///< subscripts from the base to one scalar element
    clang::QualType Scalar;        ///< the element type
  };

  std::optional<TypeShape> typeShape(const BaseInfo &B) const;

  /// Region of an item with an OmpSs shape (`[n][m]a`, `[n]a[i;1]`) or SMPSs
  /// regions (`a{lo:len}{}`): the object is an array of `Dims`, of which the
  /// item names a part in each dimension; the part must be one block of
  /// rows (a css_region).
  std::optional<RegionCode> buildShapedRegion(const NameScope &S, const Item &It, const BaseInfo &B);

  /// Region of a plain StarSs item (no shape, no `{...}`) whose base is a
  /// pointer or an array.
  std::optional<RegionCode> buildClassicRegion(const NameScope &S, const Item &It, const BaseInfo &B);

  AnalysisContext &AC;
  clang::ASTContext &Ctx;
  NameResolver &Names;
  SizeChecker &Sizes;
};

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_REGIONBUILDER_H
