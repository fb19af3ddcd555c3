//===- RegionBuilder.cpp - The region an item names ------------------------===//
#include "RegionBuilder.h"

#include "RuntimeSymbols.h"

#include "clang/AST/DeclCXX.h"

#include <algorithm>
#include <cctype>

namespace gpuss {

using clang::SourceLocation;

namespace {

std::string paren(const std::string &E) {
  return "(" + E + ")";
}

std::string count(const std::string &E) {
  return "(size_t)(" + E + ")";
}

bool isNumber(const std::string &E) {
  return !E.empty() && std::all_of(E.begin(), E.end(), [](char C) { return std::isdigit(C); });
}

/// An extent from a type: a number needs no parentheses.
std::string countExtent(const std::string &E) {
  return isNumber(E) ? "(size_t)" + E : count(E);
}

/// A factor of a region's size (a count, or an element's size), and
/// whether it is a number or a `sizeof`: a product of those alone is a
/// constant, which SizeChecks.h checks as the program is translated.
struct Factor {
  std::string Text;
  bool Constant = false;
};

Factor countOf(const std::string &E) {
  return {count(E), isNumber(E)};
}

Factor elementSize(const std::string &E) {
  return {E, true};
}

/// The product of the factors, left to right. A size computed at the call
/// may not fit in size_t, and plain `*` wraps: `v[n]` of doubles at
/// n = 2^61 + 1 was a region of 8 bytes. Each product with a factor that is
/// not a constant is css_mul, which gives CSS_SIZE_OVERFLOW there, and the
/// runtime reports the task's call (gpuss.h).
std::string multiply(const std::vector<Factor> &Factors) {
  std::string Product = Factors.front().Text;
  bool Constant = Factors.front().Constant;
  for (size_t I = 1; I < Factors.size(); ++I) {
    if (Constant && Factors[I].Constant)
      Product += " * " + Factors[I].Text;
    else
      Product = std::string(rt::Mul) + "(" + Product + ", " + Factors[I].Text + ")";
    Constant = Constant && Factors[I].Constant;
  }
  return Product;
}

} // namespace

std::string RegionBuilder::extentOf(const clang::ArrayType *AT) const {
  if (const auto *C = llvm::dyn_cast<clang::ConstantArrayType>(AT))
    return std::to_string(C->getSize().getZExtValue());
  if (const auto *V = llvm::dyn_cast<clang::VariableArrayType>(AT))
    if (const clang::Expr *Size = V->getSizeExpr()) return AC.printExpr(Size);
  return "";
}

std::optional<RegionCode> RegionBuilder::buildRegion(const NameScope &S, const Item &Written,
                                                     const BaseInfo &B) {
  Sizes.probeSizes(S, Written, B);
  Item It = Names.qualifiedItem(S, Written);
  if (It.Deref) return buildDerefRegion(S, It, B);
  if (It.isClassic()) return buildClassicRegion(S, It, B);
  return buildShapedRegion(S, It, B);
}

std::optional<size_t> RegionBuilder::pointerElementDepth(const BaseInfo &B, const Item &It) const {
  if (!It.isClassic() || It.Deref || !It.Members.empty()) return std::nullopt;
  clang::QualType T = B.Type;
  for (size_t J = 0; J < It.Dims.size(); ++J) {
    if (It.Dims[J].K != Dimension::Extent) return std::nullopt;
    clang::QualType Elem;
    if (const clang::ArrayType *AT = Ctx.getAsArrayType(T))
      Elem = AT->getElementType();
    else if (T->isPointerType())
      Elem = T->getPointeeType();
    else
      return std::nullopt;
    if (Elem->isPointerType()) return J + 1;
    if (!Ctx.getAsArrayType(Elem)) return std::nullopt;
    T = Elem;
  }
  return std::nullopt;
}

std::optional<RegionCode> RegionBuilder::buildIndirectRegion(const NameScope &S, const Item &Written,
                                                             const BaseInfo &B) {
  Item It = Names.qualifiedItem(S, Written);
  size_t Depth = *pointerElementDepth(B, It);
  std::string E = B.Name;
  clang::QualType T = B.Type;
  for (size_t J = 0; J < Depth; ++J) {
    E += "[" + It.Dims[J].First.Text + "]";
    const clang::ArrayType *AT = Ctx.getAsArrayType(T);
    T = AT ? AT->getElementType() : T->getPointeeType();
  }
  if (!hasKnownSize(T->getPointeeType())) {
    AC.error(S.Raw->locationOf(It.Offset), "cannot tell the size of what '%0' points to (type '%1')", E,
             AC.printType(T));
    return std::nullopt;
  }
  BaseInfo Pointer;
  Pointer.Name = paren(E);
  Pointer.Type = T;
  Pointer.Original = T;
  if (Depth == It.Dims.size()) {
    RegionCode R;
    R.Base = Pointer.Name;
    R.Bytes = "sizeof(*" + Pointer.Name + ")";
    return R;
  }
  Item Rest = It;
  Rest.Dims.erase(Rest.Dims.begin(), Rest.Dims.begin() + static_cast<long>(Depth));
  return buildClassicRegion(S, Rest, Pointer);
}

std::optional<RegionCode> RegionBuilder::buildDerefRegion(const NameScope &S, const Item &It,
                                                          const BaseInfo &B) {
  std::string E = B.Name;
  clang::QualType T = B.Type;
  for (const Dimension &D : It.Dims) {
    const clang::ArrayType *AT = Ctx.getAsArrayType(T);
    if (!AT && !T->isPointerType()) {
      AC.error(S.Raw->locationOf(D.Offset), "'%0' has no element to subscript (type '%1')", E,
               AC.printType(T));
      return std::nullopt;
    }
    T = AT ? AT->getElementType() : T->getPointeeType();
    E = paren(E) + "[" + D.First.Text + "]";
  }
  if (!T->isPointerType() && !Ctx.getAsArrayType(T)) {
    AC.error(S.Raw->locationOf(It.Begin),
             "'%0': '%1' is not a pointer (type '%2'); '*p' names the object a pointer p points to", It.Text,
             It.Text.substr(1), AC.printType(T));
    return std::nullopt;
  }
  clang::QualType Pointee =
      T->isPointerType() ? T->getPointeeType() : Ctx.getAsArrayType(T)->getElementType();
  if (!hasKnownSize(Pointee)) {
    AC.error(S.Raw->locationOf(It.Offset), "cannot tell the size of what '%0' points to (type '%1')",
             It.Text.substr(1), AC.printType(T));
    return std::nullopt;
  }
  RegionCode R;
  R.Base = It.Dims.empty() ? E : paren(E);
  R.Bytes = "sizeof(*" + paren(E) + ")";
  return R;
}

std::optional<RegionBuilder::TypeShape> RegionBuilder::typeShape(const BaseInfo &B) const {
  TypeShape Shape;
  clang::QualType T = B.Type, Elem;
  if (const clang::ArrayType *AT = Ctx.getAsArrayType(T)) {
    Shape.Dims.push_back(extentOf(AT));
    Elem = AT->getElementType();
  } else if (T->isPointerType()) {
    const clang::ArrayType *Orig = B.IsParm ? Ctx.getAsArrayType(B.Original) : nullptr;
    Shape.Dims.push_back(Orig ? extentOf(Orig) : "");
    Elem = T->getPointeeType();
  } else {
    return std::nullopt;
  }
  Shape.Depth = 1;
  while (const clang::ArrayType *AT = Ctx.getAsArrayType(Elem)) {
    Shape.Dims.push_back(extentOf(AT));
    Elem = AT->getElementType();
    ++Shape.Depth;
  }
  Shape.Scalar = Elem;
  return Shape;
}

std::optional<RegionCode> RegionBuilder::buildShapedRegion(const NameScope &S, const Item &It,
                                                           const BaseInfo &B) {
  SourceLocation Loc = S.Raw->locationOf(It.Offset);
  const std::string &N = B.Name;
  unsigned FirstPart = It.Shape.empty() ? It.Regions.front().Offset : It.Begin;
  std::optional<TypeShape> Shape = typeShape(B);
  if (!Shape) {
    AC.error(S.Raw->locationOf(FirstPart), "%0 on '%1', which is a scalar of type '%2'",
             It.Shape.empty() ? "regions '{...}'" : "a shape '[...]'", N, AC.printType(B.Type));
    return std::nullopt;
  }
  if (!hasKnownSize(Shape->Scalar)) {
    AC.error(Loc, "cannot tell the size of what '%0' points to (type '%1'); use a typed pointer", N,
             AC.printType(B.Type));
    return std::nullopt;
  }
  // The object's dimensions.
  std::vector<std::string> Dims;
  if (!It.Shape.empty()) {
    // OmpSs: [e1]...[ek]p views p, a pointer to T, as a T[e1]...[ek].
    for (const ExprText &E : It.Shape)
      Dims.push_back(E.Text);
    Dims.insert(Dims.end(), Shape->Dims.begin() + 1, Shape->Dims.end());
  } else {
    Dims = Shape->Dims;
    // StarSs dimensions before SMPSs regions: p[n][m]{..}{..} for a
    // pointer to scalars, a[n]{..}{..} for a pointer to arrays.
    if (!It.Dims.empty() && Dims.size() == 1)
      Dims.clear();
    else if (It.Dims.size() > Dims.size()) {
      AC.error(S.Raw->locationOf(It.Dims[Dims.size()].Offset),
               "too many dimensions for '%0' of type '%1', which has %2", N, AC.printType(B.Type),
               std::to_string(Dims.size()));
      return std::nullopt;
    }
    for (size_t I = 0; I < It.Dims.size(); ++I) {
      if (I == Dims.size()) Dims.emplace_back();
      Dims[I] = It.Dims[I].First.Text;
    }
  }
  // The part in each dimension: OmpSs sections after a shape ([i] is one
  // element), or SMPSs regions; the dimensions not named are whole.
  const std::vector<Dimension> &Parts = It.Shape.empty() ? It.Regions : It.Dims;
  if (Parts.size() > Dims.size()) {
    AC.error(S.Raw->locationOf(Parts[Dims.size()].Offset),
             "too many parts for '%0', which has %1 dimension(s) here; remove this one, or give '%0' more "
             "dimensions with a shape, e.g. '[n][m]%0'",
             N, std::to_string(Dims.size()));
    return std::nullopt;
  }
  struct Part {
    std::string Lo, Len;
    bool Whole = false, One = false;
  };
  std::vector<Part> P(Dims.size());
  for (size_t I = 0; I < Dims.size(); ++I) {
    Part &Q = P[I];
    Dimension::Kind K = I < Parts.size() ? Parts[I].K : Dimension::Whole;
    if (K == Dimension::Extent) K = Dimension::Index; // after a shape: one element
    switch (K) {
    case Dimension::Whole:
      Q.Whole = true;
      Q.Len = Dims[I];
      if (Dims[I].empty()) {
        AC.error(S.Raw->locationOf(I < Parts.size() ? Parts[I].Offset : It.Offset),
                 "cannot tell how many elements '%0' points to (type '%1'): '{}' needs a known extent; give "
                 "the part, e.g. '%0{0:n}', or a shape, e.g. '[n]%0'",
                 N, AC.printType(B.Type));
        return std::nullopt;
      }
      break;
    case Dimension::Index:
      Q.Lo = Parts[I].First.Text;
      Q.Len = "1";
      Q.One = true;
      break;
    case Dimension::Length:
      Q.Lo = Parts[I].First.Text;
      Q.Len = Parts[I].Second.Text;
      Q.One = Q.Len == "1";
      break;
    case Dimension::Range:
      Q.Lo = Parts[I].First.Text;
      Q.Len = paren(Parts[I].Second.Text) + " - " + paren(Parts[I].First.Text) + " + 1";
      Q.One = Parts[I].First.Text == Parts[I].Second.Text;
      break;
    case Dimension::Extent:
      break;
    }
    if (Q.Lo == "0") Q.Lo.clear();
  }
  // The innermost dimension that is not whole ends each row; of the
  // dimensions around it, one at most may name more than one element.
  size_t Inner = 0;
  for (size_t I = 0; I < P.size(); ++I)
    if (!P[I].Whole) Inner = I;
  std::optional<size_t> Outer;
  for (size_t I = 0; I < Inner; ++I)
    if (!P[I].One) {
      if (Outer) {
        AC.error(S.Raw->locationOf(I < Parts.size() ? Parts[I].Offset : FirstPart),
                 "'%0' names a part of more than two dimensions; a task's region is a block of rows (one "
                 "run of elements, or rows of equal runs at a fixed stride): split it into items of one "
                 "row index each, or name a larger block",
                 It.Text);
        return std::nullopt;
      }
      Outer = I;
    }
  // The dimensions from `From` inward: an offset's multiplier (unchecked:
  // a wrapped offset moves the address, which no size can record), and the
  // factors of a row's bytes and of the stride.
  auto product = [&](size_t From) {
    std::string Prod;
    for (size_t J = From; J < Dims.size(); ++J)
      Prod += count(Dims[J]) + " * ";
    return Prod;
  };
  auto factors = [&](size_t From) {
    std::vector<Factor> Fs;
    for (size_t J = From; J < Dims.size(); ++J)
      Fs.push_back(countOf(Dims[J]));
    return Fs;
  };
  // One element: *p or (a)[0][0], its address and its size.
  std::string First = "*" + N, FirstAddress = paren(N);
  if (Shape->Depth > 1) {
    First = paren(N);
    for (unsigned D = 0; D < Shape->Depth; ++D)
      First += "[0]";
    FirstAddress = "&" + First;
  }
  std::string Elem = "sizeof(" + First + ")";
  std::string Offset;
  for (size_t I = 0; I < P.size(); ++I)
    if (!P[I].Lo.empty()) Offset += (Offset.empty() ? "" : " + ") + product(I + 1) + count(P[I].Lo);
  RegionCode R;
  R.Base = Offset.empty() ? N : FirstAddress + " + (" + Offset + ")";
  std::vector<Factor> Row = factors(Inner + 1);
  if (!P[Inner].One) Row.insert(Row.begin(), countOf(P[Inner].Len));
  Row.push_back(elementSize(Elem));
  std::string RowBytes = multiply(Row);
  if (!Outer) {
    R.Bytes = RowBytes;
    return R;
  }
  R.Base = "(void *)" + paren(R.Base);
  R.RowBytes = RowBytes;
  R.Rows = count(P[*Outer].Len);
  std::vector<Factor> Stride = factors(*Outer + 1);
  Stride.push_back(elementSize(Elem));
  R.Stride = multiply(Stride);
  return R;
}

/// Whether T is a class whose elements live outside the object: it has a
/// member function `data()` returning a pointer and is not trivially
/// copyable (std::vector, std::string; not std::array, whose elements are
/// the object's own bytes).
static bool holdsDataElsewhere(clang::QualType T) {
  const auto *Class = T->getAsCXXRecordDecl();
  if (!Class || !Class->hasDefinition() || Class->isTriviallyCopyable()) return false;
  for (const clang::Decl *D : Class->decls()) {
    const auto *Named = llvm::dyn_cast<clang::NamedDecl>(D);
    if (!Named || !Named->getDeclName().isIdentifier() || Named->getName() != "data") continue;
    if (const auto *Method = llvm::dyn_cast<clang::CXXMethodDecl>(D))
      if (!Method->getReturnType()->isPointerType()) continue;
    return true;
  }
  return false;
}

std::optional<RegionCode> RegionBuilder::buildClassicRegion(const NameScope &S, const Item &It,
                                                            const BaseInfo &B) {
  SourceLocation Loc = S.Raw->locationOf(It.Offset);
  const std::string &N = B.Name;
  clang::QualType T = B.Type;
  if (!T->isPointerType() && !T->isArrayType()) {
    // A variable named at a call site or in `wait on`: the variable itself.
    // A container's object (a std::vector's) is not the elements it holds:
    // naming it alone waits for, or depends on, its few bytes of pointers
    // (found by a sweep of OmpSs-style programs, 2026-11-29: `on(v)` as the
    // old message advised waited for nothing).
    const bool HoldsData = holdsDataElsewhere(T);
    if (!It.Dims.empty()) {
      if (HoldsData)
        AC.error(S.Raw->locationOf(It.Dims.front().Offset),
                 "dimensions on '%0', an object of class type '%1': its elements are not in the object; name "
                 "them through a pointer to its data (for example 'auto *%0_data = %0.data();' before the "
                 "directive, and '%0_data%2' in it)",
                 N, AC.printType(T), It.Text.substr(N.size()));
      else
        AC.error(S.Raw->locationOf(It.Dims.front().Offset),
                 "dimensions on '%0', which is a scalar of type '%1'; name the variable alone ('%0')", N,
                 AC.printType(T));
      return std::nullopt;
    }
    if (HoldsData)
      AC.warning(Loc,
                 "'%0' names the object of class type '%1' itself, not the elements it holds elsewhere "
                 "(through its 'data()'): the tasks that use those elements through a pointer are not "
                 "ordered by it; name the elements through a pointer to its data",
                 N, AC.printType(T));
    RegionCode R;
    R.Base = "&" + N;
    R.Bytes = "sizeof " + N;
    return R;
  }
  clang::QualType Pointee;
  std::string Whole;
  if (const clang::ArrayType *AT = Ctx.getAsArrayType(T)) {
    Pointee = AT->getElementType();
    if (llvm::isa<clang::ConstantArrayType>(AT) || llvm::isa<clang::VariableArrayType>(AT))
      Whole = "sizeof " + N;
  } else {
    Pointee = T->getPointeeType();
    // A parameter declared as an array (`double a[4][4]`, `ELM data[n]`,
    // `block R`): the whole array its type gives.
    const clang::ArrayType *OrigArray = B.IsParm ? Ctx.getAsArrayType(B.Original) : nullptr;
    std::string OrigExtent = OrigArray ? extentOf(OrigArray) : "";
    if (!OrigExtent.empty())
      Whole = multiply({{countExtent(OrigExtent), isNumber(OrigExtent)}, elementSize("sizeof(*" + N + ")")});
    else if (OrigArray && It.Dims.empty()) {
      // `double a[]`, `double a[][4]`, `double a[*]`: an array whose
      // length the declaration does not give. Named alone it was taken as
      // one element (one row), and devices copied only that (a helper's
      // sweep of numerical C, 2026-11-29).
      AC.error(Loc,
               "'%0' is declared as an array of unknown length (type '%1'); give the length in the clause, "
               "e.g. '%0[n]'",
               N, AC.printType(B.Original));
      return std::nullopt;
    } else if (hasKnownSize(Pointee))
      Whole = "sizeof(*" + N + ")";
  }
  if (!hasKnownSize(Pointee)) {
    AC.error(Loc, "cannot tell the size of what '%0' points to (type '%1'); use a typed pointer", N,
             AC.printType(T));
    return std::nullopt;
  }
  RegionCode R;
  if (It.Dims.empty()) {
    if (Whole.empty()) {
      AC.error(Loc, "cannot tell the size of '%0'; give its dimensions, e.g. '%0[n]'", N);
      return std::nullopt;
    }
    R.Base = N;
    R.Bytes = Whole;
    return R;
  }
  unsigned Rank = 0;
  for (clang::QualType P = Pointee; const clang::ArrayType *AT = Ctx.getAsArrayType(P);
       P = AT->getElementType())
    ++Rank;
  auto lowAndLength = [](const Dimension &D, std::string &Lo, std::string &Len) {
    if (D.K == Dimension::Extent) {
      Lo = "";
      Len = D.First.Text;
    } else if (D.K == Dimension::Length) {
      Lo = D.First.Text;
      Len = D.Second.Text;
    } else {
      Lo = D.First.Text;
      Len = paren(D.Second.Text) + " - " + paren(D.First.Text) + " + 1";
    }
  };
  if (Rank == 0) {
    if (!It.hasSection()) {
      // name[e1][e2]...: e1*e2*... consecutive elements.
      std::vector<Factor> Bytes;
      for (const Dimension &D : It.Dims)
        Bytes.push_back(countOf(D.First.Text));
      Bytes.push_back(elementSize("sizeof(*" + N + ")"));
      R.Base = N;
      R.Bytes = multiply(Bytes);
      return R;
    }
    if (It.Dims.size() > 1) {
      AC.error(S.Raw->locationOf(It.Dims[1].Offset),
               "sections in more than one dimension need a pointer to arrays, such as 'double (*%0)[N]', "
               "or a shape, e.g. '[n][m]%0[i;k][j;l]'",
               N);
      return std::nullopt;
    }
    std::string Lo, Len;
    lowAndLength(It.Dims[0], Lo, Len);
    R.Base = paren(N) + " + " + paren(Lo);
    R.Bytes = multiply({countOf(Len), elementSize("sizeof(*" + N + ")")});
    return R;
  }
  if (It.Dims.size() > Rank + 1) {
    AC.error(S.Raw->locationOf(It.Dims[Rank + 1].Offset),
             "too many dimensions for '%0' of type '%1', which has %2", N, AC.printType(T),
             std::to_string(Rank + 1));
    return std::nullopt;
  }
  for (size_t I = 2; I < It.Dims.size(); ++I)
    if (It.Dims[I].K != Dimension::Extent) {
      AC.error(S.Raw->locationOf(It.Dims[I].Offset),
               "sections are supported in the first two dimensions only; give the full extent here");
      return std::nullopt;
    }
  std::string Lo1, Len1;
  lowAndLength(It.Dims[0], Lo1, Len1);
  if (It.Dims.size() < 2 || It.Dims[1].K == Dimension::Extent) {
    R.Base = Lo1.empty() ? N : paren(N) + " + " + paren(Lo1);
    R.Bytes = multiply({countOf(Len1), elementSize("sizeof(*" + N + ")")});
    return R;
  }
  std::string Lo2, Len2;
  lowAndLength(It.Dims[1], Lo2, Len2);
  R.Base = "(void *)&" + paren(N) + "[" + (Lo1.empty() ? "0" : Lo1) + "][" + Lo2 + "]";
  R.RowBytes = multiply({countOf(Len2), elementSize("sizeof(" + paren(N) + "[0][0])")});
  R.Rows = count(Len1);
  R.Stride = "sizeof(*" + N + ")";
  return R;
}

} // namespace gpuss
