"""`linalg-conv-to-im2col`: 2-D convolutions as a gather and a matmul.

MLIR's `transform.structured.convert_conv2d_to_img2col`
(`mlir/lib/Dialect/Linalg/Transforms/ConvertConv2DToImg2Col.cpp`), for
`linalg.conv_2d_nchw_fchw` on tensors, as torch-mlir and `nn.conv2d` write
convolutions (the padding already a `tensor.pad` of the input), and for
`linalg.conv_2d_nhwc_hwcf` (NHWC, below):

```mlir
%y = linalg.conv_2d_nchw_fchw {strides = [sh, sw], dilations = [dh, dw]}
    ins(%x, %w : tensor<NxCxHxW>, tensor<FxCxKHxKW>) outs(%init : tensor<NxFxOHxOW>)
```

becomes

```mlir
// the im2col gather: col[n, k, p] = x[n, c, oh*sh + kh*dh, ow*sw + kw*dw]
// with k = (c, kh, kw) and p = (oh, ow) in row-major order
%col = linalg.generic {maps = [(n, k, p) -> (n, k, p)], all parallel}
    outs(%empty : tensor<N x C*KH*KW x OH*OW>) {
  linalg.index 0, 1, 2; k and p split by divui/remui; tensor.extract %x[...]
}
%w2 = tensor.collapse_shape %w [[0], [1, 2, 3]] : tensor<F x C*KH*KW>
%c = tensor.collapse_shape %init [[0], [1], [2, 3]] : tensor<N x F x OH*OW>
%m = linalg.generic {maps = [(n, f, p, k) -> (f, k), (n, f, p, k) -> (n, k, p),
                             (n, f, p, k) -> (n, f, p)],
                     [parallel, parallel, parallel, reduction]}
    ins(%w2, %col) outs(%c) { the convolution's own body, arguments swapped }
%y = tensor.expand_shape %m [[0], [1], [2, 3]] : tensor<NxFxOHxOW>
```

A zero (or any constant) `tensor.pad` of the input's rows and columns, as
torch-mlir and `nn.conv2d` write a padded convolution, is folded into the
gather: it reads the unpadded input at clamped indices and selects the
padding value outside it (`arith.cmpi`, `arith.select`), so no padded copy
of the input is made; the pad is erased when nothing else reads it.

A 1x1 convolution of stride 1 (a bottleneck's or a MobileNet block's
pointwise convolutions), unpadded, needs no gather: its columns are the
input itself, `tensor.collapse_shape %x [[0], [1], [2, 3]]`.

Why: a convolution's window maps (`d2 * sh + d5 * dh`) are compound, so the
GPU tiling (`linalg-tile-for-gpu`) can tile neither its output rows nor its
columns, and each thread ran a whole output plane (a ResNet-18 took a
second on the GPU). As a batch of matmuls (`F x K` weights times `K x P`
columns, the batch `N` on the grid), it takes the matmul path: register
and shared-memory tiles in f32, tensor cores in f16 and bf16
(`convert-linalg-to-mma`, the columns read k-major). The gather is one
elementwise kernel over `N * K * P` elements whose neighbouring threads read
neighbouring input columns (stride 1): the cost is writing and reading the
columns once, `KH * KW` times the input's size.

**The row-tiled form (the CPU's, `column-tile-bytes`).** Written out, the
flat gather's columns are `KH * KW` times the input (7 MB for a ResNet
stage-1 3x3 convolution of one image), computed with divisions and
remainders per element and read back from L3 by the matmul. With
`column-tile-bytes` (`lower-to-c` passes half its L2 cache), the output's
rows are cut into `T = OH / R` tiles of `R` whole rows, `R` the most rows
dividing OH whose columns (`K x R * OW`) fit the budget, leaving at least
`min-row-tiles` tiles over the batch (as many as `linalg-pack-operands` runs
one matrix per parallel iteration for) and a product holding a whole
register tile (`register_tile_shape` of `vector-bits`, `vector-registers`:
at least MR filters and NR pixels a tile):

```mlir
// col[n, t, c, kh, kw, i, ow] = x[n, c, (t * R + i) * sh + kh * dh, ow * sw + kw * dw]
%col = linalg.generic {7 loops, identity map, all parallel}
    outs(%e : tensor<N x T x C x KH x KW x R x OW>)   // every index a loop's
%cols = tensor.collapse_shape %col [[0], [1], [2, 3, 4], [5, 6]]  // N x T x K x Q
%m = linalg.generic {maps = [(n, t, f, q, k) -> (f, k), (n, t, f, q, k) -> (n, t, k, q),
                             (n, t, f, q, k) -> (n, f, t, q)]}
    ins(%w2, %cols) outs(%fill : tensor<N x F x T x Q>)   // Q = R * OW
%y = expand %m to N x F x T x R x OW, collapsed to N x F x OH x OW
```

so the gather needs no division and its innermost loop reads along one
input row, and the product is a batch of `N x T` matmuls whose columns
`linalg-pack-operands` gathers one tile at a time in that tile's parallel
iteration, right before its micro-kernels read them from L2 (an implicit
GEMM: each part is written and read while it is hot, in a slot of a
buffer of one tile per parallel iteration, reused from tile to tile, not
the whole `N x T x K x Q`). The product writes the result where it lies (its
output `N x F x T x Q` is a reshape of `N x F x OH x OW`, the tiles
between the filters and the pixels), so an init that is not a fill is
accumulated into in place, reshaped. The flat form stays where no tile count fits (an
output of few rows at batch 1: ResNet-18's 7x7 stage at batch 1), for
fewer filters than MR, for padded products (the GPU's multiples), and a
pointwise convolution keeps its reshape.

With `merge-images-below=M` (what `lower-to-cuda` passes: 4 x its
implicit GEMMs' pixel tile), a batch of `N > 1` images of fewer than `M`
output pixels each, whose init is a fill (any but a 1x1 stride-1
convolution; not f16/bf16 into f32) is one matmul over all the images'
columns side by side, as cuDNN's implicit GEMM takes its `N x P` columns:

```mlir
// col[k, q] = x[q / P, c, oh*sh + kh*dh, ow*sw + kw*dw], p = q mod P
%col = linalg.generic {(k, q) -> (k, q), all parallel} outs(tensor<K x N*P>)
%m = linalg.generic {maps = [(f, q, k) -> (f, k), (f, q, k) -> (k, q),
                             (f, q, k) -> (f, q)]} ins(%w2, %col) outs(%fill)
%by_image = tensor.expand_shape %m [[0], [1, 2]] : tensor<F x N x P>
%r = linalg.generic {maps = [(n, f, p) -> (f, n, p), (n, f, p) -> (n, f, p)]}
    ins(%by_image) outs(tensor<N x F x P>)   // the reorder, a copy
%y = tensor.expand_shape %r [[0], [1], [2, 3]] : tensor<N x F x OH x OW>
```

Eight 7x7 images are then 392 columns, not eight matmuls of one 49-pixel
tile each (64 blocks for 132 multiprocessors); the product is a plain
matmul `linalg-split-reduction` may split. The padding multiples apply to
`F`, `K` and `N * P`.

**NHWC (`linalg.conv_2d_nhwc_hwcf`, `linalg-convert-to-nhwc`'s).** The
channels are the input's last dimension, so the columns are pixel-major,
`k = (kh, kw, c)` with the channels innermost (neighbouring k read
neighbouring input elements), and the product's rows are every image's
pixels at once: one matmul `(N * P) x K @ K x F` whose output is the NHWC
result reshaped (no transpose):

```mlir
// col[m, k] = x[n, oh * sh + kh * dh, ow * sw + kw * dw, c], m = (n, oh, ow)
%col = linalg.generic {maps = [(m, k) -> (m, k)], all parallel}
    outs(%empty : tensor<N*OH*OW x KH*KW*C>)
%w2 = tensor.collapse_shape %w [[0, 1, 2], [3]] : tensor<KH*KW*C x F>
%c = tensor.collapse_shape %init [[0, 1, 2], [3]] : tensor<N*OH*OW x F>
%m = linalg.generic {maps = [(m, f, k) -> (m, k), (m, f, k) -> (k, f),
                             (m, f, k) -> (m, f)]}
    ins(%col, %w2) outs(%c) { the convolution's own body }
%y = tensor.expand_shape %m [[0, 1, 2], [3]] : tensor<NxOHxOWxF>
```

The multiples pad the product's rows (`pixel-multiple`, over N * P; the
pixels of `gather-multiples`), its reduction and its columns
(`filter-multiple`) as in NCHW (`ConvToIm2col.padding_multiples`); a
pointwise convolution's columns are the input reshaped (`[[0, 1, 2],
[3]]`); a constant padding of rows and columns (dimensions 1 and 2) is
read through its source. With `column-tile-bytes` (the CPU's) the gather
runs over the window's loops, `col[n, oh, ow, kh, kw, c]` (no division),
collapsed to the columns; there is no row-tiled NHWC form (pixel-major
column tiles are merged with their pixels by `linalg-collapse-dims`, the
product's output being contiguous; k-major ones read the input at a
stride of C).

**Contract.** Rewrites every `linalg.conv_2d_nchw_fchw` and
`linalg.conv_2d_nhwc_hwcf` on tensors of static shapes; nothing else
(other layouts such as `nhwc_fhwc`, depthwise and grouped convolutions,
memrefs, dynamic shapes are left alone). Preserves every output element
exactly in every form: each is the same sum of the same products, in the
same order (NCHW: `c`, then `kh`, then `kw`; NHWC: `kh`, `kw`, then `c`;
the named ops' loop orders), with the op's body (and so its operand
conversions) unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.dialects.tensor import ExtractOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.memory import element_bytes
from irkit.analysis.structured import (
    MAX_PADDING_GROWTH_PERCENT,
    is_fill,
    padded_ranges,
    takes_tensor_cores,
)
from irkit.dialects import linalg, tensor
from irkit.dialects.linalg import Conv2DNchwFchwOp, Conv2DNhwcHwcfOp, GenericOp
from irkit.transforms.utils.builders import pad_op
from irkit.transforms.utils.padding import (
    ConstantPadding,
    constant_padding,
    read_padded,
)
from irkit.transforms.utils.reshapes import (
    collapse_op,
    collapsed_type,
    expand_op,
    fill_like,
)
from irkit.transforms.utils.tiling import register_tile_shape

PASS_NAME = "linalg-conv-to-im2col"


def _window_values(attribute: Attribute | None) -> tuple[int, int]:
    """A strides or dilations attribute's two values (1, 1 when absent)."""
    if attribute is None:
        return (1, 1)
    assert isinstance(attribute, DenseIntOrFPElementsAttr)
    first, second = (int(value) for value in attribute.get_values())
    return (first, second)


@dataclass(frozen=True)
class _ConvShape:
    """The extents of one NCHW/FCHW convolution."""

    batch: int
    channels: int
    filters: int
    kernel: tuple[int, int]
    output: tuple[int, int]
    strides: tuple[int, int]
    dilations: tuple[int, int]

    @property
    def reduction(self) -> int:  # K = C * KH * KW
        return self.channels * self.kernel[0] * self.kernel[1]

    @property
    def pixels(self) -> int:  # P = OH * OW
        return self.output[0] * self.output[1]

    @property
    def is_pointwise(self) -> bool:
        """A 1x1 kernel at stride 1: output pixel p reads input pixel p."""
        return self.kernel == (1, 1) and self.strides == (1, 1)


def _static_tensor(value: SSAValue) -> TensorType[Attribute] | None:
    value_type = value.type
    if isinstance(value_type, TensorType) and value_type.has_static_shape():
        return cast(TensorType[Attribute], value_type)
    return None


def _attribute(op: Operation, name: str) -> Attribute | None:
    """A property or attribute of `op` (xDSL keeps window sizes in either)."""
    return op.properties.get(name) or op.attributes.get(name)


def conv_shape(op: Conv2DNchwFchwOp | Conv2DNhwcHwcfOp) -> _ConvShape | None:
    """The convolution's extents (NCHW/FCHW or NHWC/HWCF), when every
    operand is a static tensor."""
    if len(op.inputs) != 2 or len(op.outputs) != 1 or len(op.results) != 1:
        return None
    types = [_static_tensor(v) for v in (*op.inputs, *op.outputs)]
    if any(t is None for t in types):
        return None
    x, w, out = (cast(TensorType[Attribute], t).get_shape() for t in types)
    if isinstance(op, Conv2DNhwcHwcfOp):
        channels, filters = x[3], w[3]
        kernel, output = (w[0], w[1]), (out[1], out[2])
    else:
        channels, filters = x[1], w[0]
        kernel, output = (w[2], w[3]), (out[2], out[3])
    return _ConvShape(
        batch=out[0],
        channels=channels,
        filters=filters,
        kernel=kernel,
        output=output,
        strides=_window_values(_attribute(op, "strides")),
        dilations=_window_values(_attribute(op, "dilations")),
    )


class _IndexBuilder:
    """Index arithmetic appended to one block."""

    def __init__(self, block: Block) -> None:
        self.block = block

    def add(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0]

    def constant(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, IndexType())))

    def div(self, value: SSAValue, by: int) -> SSAValue:
        return value if by == 1 else self.add(arith.DivUIOp(value, self.constant(by)))

    def rem(self, value: SSAValue, by: int) -> SSAValue:
        return self.add(arith.RemUIOp(value, self.constant(by)))

    def window(
        self, output: SSAValue, stride: int, tap: SSAValue, dilation: int
    ) -> SSAValue:
        """`output * stride + tap * dilation`: an input row or column."""
        return self.add(
            arith.AddiOp(self.scaled(output, stride), self.scaled(tap, dilation))
        )

    def clamped(self, index: SSAValue, extent: int) -> tuple[SSAValue, SSAValue]:
        """`min(index, extent - 1)` and whether `index < extent`: a padded
        index read in bounds, and whether it is a real one."""
        last = self.constant(extent - 1)
        inside = self.add(arith.CmpiOp(index, last, "ule"))
        return self.add(arith.MinUIOp(index, last)), inside

    def scaled(self, value: SSAValue, factor: int) -> SSAValue:
        if factor == 1:
            return value
        return self.add(arith.MuliOp(value, self.constant(factor)))


# The input's rows and columns: NCHW's dimensions 2 and 3, NHWC's 1 and 2.
NCHW_SPATIAL = (2, 3)
NHWC_SPATIAL = (1, 2)


def spatial_padding(
    x: SSAValue, spatial: tuple[int, int] = NCHW_SPATIAL
) -> ConstantPadding | None:
    """`x`'s padding when `x` is a `tensor.pad` by one value
    (`constant_padding`) of the rows and columns (dimensions `spatial`)
    only."""
    padding = constant_padding(x)
    if padding is None or not set(padding.grown) <= set(spatial):
        return None
    return padding


def _gather(
    x: SSAValue,
    shape: _ConvShape,
    element: Attribute,
    extents: tuple[int, int],
    merged_images: bool = False,
) -> tuple[tensor.EmptyOp, GenericOp]:
    """The im2col generic, `col[n, k, p]` from `x` (see the module doc), and
    the empty tensor it fills. When `x` pads its source by a constant, the
    gather reads the source, clamped into its bounds, and selects the
    padding value outside them: no padded copy is made. `extents` are the
    columns' rows and columns (K and P, or multiples of the matmul's tiles
    past them): rows past K and columns past P hold zeros (the gather reads
    `min(k, K - 1)`, `min(p, P - 1)` and selects zero outside).
    `merged_images`: `col[k, q]`, the columns of every image side by side
    (q = n * P + p; `extents` then K and N * P, or multiples past them)."""
    rows, columns = extents
    leading = [] if merged_images else [shape.batch]
    col_type = TensorType(element, [*leading, rows, columns])
    empty = tensor.EmptyOp([], col_type)
    body = Block(arg_types=[element])
    ib = _IndexBuilder(body)
    inside: list[SSAValue] = []
    if merged_images:
        k, column = (ib.add(IndexOp(dim)) for dim in range(2))
        real_columns = shape.batch * shape.pixels
    else:
        n, k, column = (ib.add(IndexOp(dim)) for dim in range(3))
        real_columns = shape.pixels
    if rows != shape.reduction:
        k, row_inside = ib.clamped(k, shape.reduction)
        inside.append(row_inside)
    if columns != real_columns:
        column, column_inside = ib.clamped(column, real_columns)
        inside.append(column_inside)
    if merged_images:
        n, p = ib.div(column, shape.pixels), ib.rem(column, shape.pixels)
    else:
        p = column
    kh_extent, kw_extent = shape.kernel
    channel = ib.div(k, kh_extent * kw_extent)
    tap_row = ib.rem(ib.div(k, kw_extent), kh_extent)
    tap_column = ib.rem(k, kw_extent)
    out_row = ib.div(p, shape.output[1])
    out_column = ib.rem(p, shape.output[1])
    row = ib.window(out_row, shape.strides[0], tap_row, shape.dilations[0])
    column = ib.window(out_column, shape.strides[1], tap_column, shape.dilations[1])
    padding = spatial_padding(x)
    if padding is None:
        value = ib.add(ExtractOp(x, [n, channel, row, column], element))
    else:
        value = read_padded(padding, [n, channel, row, column], element, ib.add)
    if inside:
        real = inside[0]
        for other in inside[1:]:
            real = ib.add(arith.AndIOp(real, other))
        margin = ib.add(arith.ConstantOp(_zero_attribute(element)))
        value = ib.add(arith.SelectOp(real, value, margin))
    body.add_op(LinalgYieldOp(value))
    rank = len(col_type.get_shape())
    identity = AffineMapAttr(AffineMap.identity(rank))
    gather = GenericOp(
        [],
        [empty.tensor],
        Region(body),
        ArrayAttr([identity]),
        ArrayAttr([IteratorTypeAttr(IteratorType.PARALLEL)] * rank),
        [col_type],
    )
    return empty, gather


def _zero_attribute(element: Attribute) -> FloatAttr | IntegerAttr:
    if isinstance(element, AnyFloat):
        return FloatAttr(0.0, element)
    assert isinstance(element, IntegerType)
    return IntegerAttr(0, element)


@dataclass(frozen=True)
class _MatmulExtents:
    """The matmul's filters (M), reduction (K) and columns (P), each the
    convolution's or a multiple of its tile past it. (NHWC: `pixels` are
    every image's, N * P, and the product's rows.)"""

    filters: int
    reduction: int
    pixels: int


def padded_extents(
    shape: _ConvShape, multiples: tuple[int, int, int], max_growth_percent: int
) -> _MatmulExtents:
    """The matmul's filters, reduction and columns (F, K, P), each rounded up
    to its multiple (the matmul's block tile along the filters and the
    pixels, its K step; 0 or 1: kept) where padding pays (`padded_ranges`,
    as `linalg-pad-contractions` decides for the product it would pad)."""
    extents = [shape.filters, shape.reduction, shape.pixels]
    steps = [max(multiple, 1) for multiple in multiples]
    padded = padded_ranges(extents, steps, max_growth_percent) or extents
    return _MatmulExtents(padded[0], padded[1], padded[2])


def _weights_matrix(
    w: SSAValue, filters: int, rows: int, rewriter: PatternRewriter
) -> SSAValue:
    """An NCHW convolution's `F x C x KH x KW` weights as the product's
    `filters x rows` A, inserted: collapsed to `F x K`, and zero past F and K
    where the product is padded (one elementwise op: a pad would be a fill
    and a copy)."""
    w_type = cast(TensorType[Attribute], w.type)
    groups = [[0], [1, 2, 3]]
    weights = collapse_op(w, groups, collapsed_type(w_type, groups))
    rewriter.insert_op(weights)
    if [filters, rows] == list(weights.result.type.get_shape()):
        return weights.result
    padded = _zero_padded_matrix(
        weights.result, (filters, rows), w_type.get_element_type()
    )
    rewriter.insert_op(padded)
    return padded[1].results[0]


def _padded_init(
    init: SSAValue, flat_type: TensorType[Attribute], extents: _MatmulExtents
) -> list[Operation]:
    """Ops computing the matmul's `N x F' x P'` init from the convolution's
    `init`, collapsed to `flat_type`: a fill of a padded empty tensor when
    `init` is a fill (as torch-mlir writes it), else the collapsed init
    padded with zeros. The last op's result is the init."""
    n = flat_type.get_shape()[0]
    padded_shape = [n, extents.filters, extents.pixels]
    return _product_init(init, [[0], [1], [2, 3]], flat_type, padded_shape)


def rows_per_tile(
    shape: _ConvShape,
    element: int,
    tile_bytes: int,
    min_tiles: int,
    register_tile: tuple[int, int],
) -> int | None:
    """Output rows per column tile of the row-tiled form (`column-tile-bytes`):
    the most rows dividing OH whose columns (`K x rows * OW` elements of
    `element` bytes) fit `tile_bytes`, that leave at least `min_tiles`
    tiles over the batch, and whose product holds a whole register tile
    (`register_tile` = MR filters x NR pixels: `linalg-pack-operands` packs
    it); None when no number of rows does."""
    out_rows, out_columns = shape.output
    mr, nr = register_tile
    if shape.filters < mr:
        return None
    fitting = [
        rows
        for rows in range(1, out_rows + 1)
        if out_rows % rows == 0
        and shape.reduction * rows * out_columns * element <= tile_bytes
        and shape.batch * (out_rows // rows) >= min_tiles
        and rows * out_columns >= nr
    ]
    return max(fitting) if fitting else None


def _row_tile_gather(
    x: SSAValue, shape: _ConvShape, element: Attribute, rows: int
) -> tuple[tensor.EmptyOp, GenericOp]:
    """The row-tiled gather (see the module doc), `col[n, t, c, kh, kw, i, ow]
    = x[n, c, (t * rows + i) * sh + kh * dh, ow * sw + kw * dw]`, and the
    empty tensor it fills: every index is a loop's, so no division, and the
    innermost loop reads one input row (strided by the stride)."""
    out_rows, out_columns = shape.output
    kh_extent, kw_extent = shape.kernel
    col_type = TensorType(
        element,
        [
            shape.batch,
            out_rows // rows,
            shape.channels,
            kh_extent,
            kw_extent,
            rows,
            out_columns,
        ],
    )
    empty = tensor.EmptyOp([], col_type)
    body = Block(arg_types=[element])
    ib = _IndexBuilder(body)
    n, tile, channel, tap_row, tap_column, within, out_column = (
        ib.add(IndexOp(dim)) for dim in range(7)
    )
    out_row = ib.add(arith.AddiOp(ib.scaled(tile, rows), within))
    in_row = ib.window(out_row, shape.strides[0], tap_row, shape.dilations[0])
    in_column = ib.window(out_column, shape.strides[1], tap_column, shape.dilations[1])
    position = [n, channel, in_row, in_column]
    padding = spatial_padding(x)
    if padding is None:
        value = ib.add(ExtractOp(x, position, element))
    else:
        value = read_padded(padding, position, element, ib.add)
    body.add_op(LinalgYieldOp(value))
    identity = AffineMapAttr(AffineMap.identity(7))
    gather = GenericOp(
        [],
        [empty.tensor],
        Region(body),
        ArrayAttr([identity]),
        ArrayAttr([IteratorTypeAttr(IteratorType.PARALLEL)] * 7),
        [col_type],
    )
    return empty, gather


def _swapped_body(op: Conv2DNchwFchwOp, rewriter: PatternRewriter) -> Region:
    """The convolution's body with its two input arguments swapped (the
    weights first, as the product takes its operands): the same ops on the
    same values."""
    body = rewriter.move_region_contents_to_new_regions(op.regions[0])
    block = body.block
    input_arg, weight_arg = block.args[0], block.args[1]
    weight_first = block.insert_arg(weight_arg.type, 0)
    weight_first.name_hint = weight_arg.name_hint
    weight_arg.replace_all_uses_with(weight_first)
    block.erase_arg(weight_arg)
    assert block.args[1] is input_arg
    return body


@dataclass
class ConvToIm2col(RewritePattern):
    # The matmul's columns are padded to a multiple of `pixel_multiple`, its
    # reduction to one of `reduction_multiple`, its filters to one of
    # `filter_multiple` (0 or 1: never), together by at most
    # `max_growth_percent` percent (`padded_extents`).
    pixel_multiple: int = 0
    reduction_multiple: int = 0
    filter_multiple: int = 0
    max_growth_percent: int = MAX_PADDING_GROWTH_PERCENT
    # The reduction's multiple for f16/bf16 convolutions into f32 (0:
    # `reduction_multiple`).
    half_reduction_multiple: int = 0
    # The (filters, pixels, reduction) multiples of a convolution that
    # needs a gather (all but an unpadded pointwise one; not half into
    # f32), in place of the three above: an implicit GEMM's own tiles
    # (`lower-to-cuda{conv-block}`). Empty: the same as any other.
    gather_multiples: tuple[int, ...] = ()
    # A batch of images of fewer output pixels than this each (0: never) is
    # one matmul over every image's columns side by side (`_rewrite_merged`).
    merge_images_below: int = 0
    # The row-tiled form's column tiles at most this many bytes (0: the
    # flat form); at least `min_row_tiles` of them (`rows_per_tile`).
    column_tile_bytes: int = 0
    min_row_tiles: int = 1
    # The vector unit the products' micro-kernels are sized for
    # (`register_tile_shape`).
    vector_bits: int = 256
    vector_registers: int = 16

    def padding_multiples(self, gathered: bool, half: bool) -> tuple[int, int, int]:
        """The (filters, reduction, pixels) multiples the product pads to:
        K to `half_reduction_multiple` for f16/bf16 into f32 (`half`), an
        implicit GEMM's own tiles (`gather_multiples`) for a convolution
        that needs a gather (`gathered`), else the plain ones."""
        multiples = (self.filter_multiple, self.reduction_multiple, self.pixel_multiple)
        if self.half_reduction_multiple and half:
            return (multiples[0], self.half_reduction_multiple, multiples[2])
        if self.gather_multiples and gathered and not half:
            filters, pixels, reduction = self.gather_multiples
            return (filters, reduction, pixels)
        return multiples

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: Conv2DNchwFchwOp, rewriter: PatternRewriter
    ) -> None:
        shape = conv_shape(op)
        if shape is None:
            return
        x, w = op.inputs
        (init,) = op.outputs
        x_type = cast(TensorType[Attribute], x.type)
        w_type = cast(TensorType[Attribute], w.type)
        init_type = cast(TensorType[Attribute], init.type)
        pointwise = shape.is_pointwise and spatial_padding(x) is None
        half = takes_tensor_cores(
            [x_type.get_element_type(), w_type.get_element_type()],
            init_type.get_element_type(),
        )
        multiples = self.padding_multiples(gathered=not pointwise, half=half)
        extents = padded_extents(shape, multiples, self.max_growth_percent)
        rows, columns_count = extents.reduction, extents.pixels
        # The product is padded (and its corner the result) along F or P.
        padded = (extents.filters, columns_count) != (shape.filters, shape.pixels)
        if (
            self.column_tile_bytes
            and not pointwise
            and extents == _MatmulExtents(shape.filters, shape.reduction, shape.pixels)
        ):
            accumulator_bits = 8 * (element_bytes(init_type.get_element_type()) or 4)
            tile_rows = rows_per_tile(
                shape,
                element_bytes(x_type.get_element_type()) or 4,
                self.column_tile_bytes,
                self.min_row_tiles,
                register_tile_shape(
                    accumulator_bits, self.vector_bits, self.vector_registers
                ),
            )
            if tile_rows is not None:
                _rewrite_row_tiled(op, shape, tile_rows, rewriter)
                return
        if (
            self.merge_images_below
            and not pointwise
            and not half
            and 1 < shape.batch
            and shape.pixels < self.merge_images_below
            and _is_filled(init)
        ):
            _rewrite_merged(op, shape, multiples, self.max_growth_percent, rewriter)
            return
        columns: SSAValue
        gathered = rows != shape.reduction or columns_count != shape.pixels
        if shape.is_pointwise and spatial_padding(x) is None and not gathered:
            # A 1x1 convolution of stride 1 reads each input element once,
            # in the columns' order: the columns are the input, reshaped.
            pixel_groups = [[0], [1], [2, 3]]
            reshape = collapse_op(x, pixel_groups, collapsed_type(x_type, pixel_groups))
            rewriter.insert_op(reshape)
            columns = reshape.result
        else:
            columns_empty, gather = _gather(
                x, shape, x_type.get_element_type(), (rows, columns_count)
            )
            rewriter.insert_op([columns_empty, gather])
            columns = gather.results[0]
        output_groups = [[0], [1], [2, 3]]
        flat_type = collapsed_type(init_type, output_groups)
        init_ops: list[Operation] = (
            _padded_init(init, flat_type, extents)
            if padded
            else [collapse_op(init, output_groups, flat_type)]
        )
        weights_value = _weights_matrix(w, extents.filters, rows, rewriter)
        # The init right before the product: its fill runs in the matmul's
        # kernel (`linalg-tile-for-gpu`'s prologue).
        rewriter.insert_op(init_ops)
        flat_init = init_ops[-1]
        product_type = flat_init.results[0].type
        loops = 4  # n, f, p, k
        # The weights first: the product is `A (F x K) @ B (K x P)` per
        # batch, the operand order the matmul kernels take A and B in
        # (`convert-linalg-to-mma` runs f16 and bf16 ones on tensor cores
        # only so). The body's arguments are swapped to match: the same ops
        # on the same values.
        maps = [
            AffineMap.from_callable(lambda n, f, p, k: (f, k)),
            AffineMap.from_callable(lambda n, f, p, k: (n, k, p)),
            AffineMap.from_callable(lambda n, f, p, k: (n, f, p)),
        ]
        assert all(m.num_dims == loops for m in maps)
        body = _swapped_body(op, rewriter)
        product = GenericOp(
            [weights_value, columns],
            [flat_init.results[0]],
            body,
            ArrayAttr([AffineMapAttr(m) for m in maps]),
            ArrayAttr(
                [IteratorTypeAttr(IteratorType.PARALLEL)] * 3
                + [IteratorTypeAttr(IteratorType.REDUCTION)]
            ),
            [product_type],
        )
        rewriter.insert_op(product)
        flat_result = product.results[0]
        if padded:
            # The output's filters and pixels: the padded product's corner.
            corner = tensor.ExtractSliceOp(
                flat_result, [0, 0, 0], flat_type.get_shape(), [1, 1, 1], flat_type
            )
            rewriter.insert_op(corner)
            flat_result = corner.result
        result = expand_op(flat_result, output_groups, init_type)
        rewriter.replace_op(op, result)
        _erase_dead_operands(x, init, rewriter)


def _is_filled(value: SSAValue) -> bool:
    """Whether `value` is the result of a fill (`linalg.fill`, or a generic
    that only yields a scalar input)."""
    fill = value.owner
    return (
        isinstance(fill, linalg.FillOp | GenericOp)
        and (isinstance(fill, linalg.FillOp) or is_fill(fill))
        and len(fill.results) == 1
    )


def _rewrite_merged(
    op: Conv2DNchwFchwOp,
    shape: _ConvShape,
    multiples: tuple[int, int, int],
    max_growth_percent: int,
    rewriter: PatternRewriter,
) -> None:
    """The merged form (see the module doc): the columns of all `N` images
    side by side, `col[k, n * P + p]`, one `F x K @ K x NP` matmul from the
    convolution's fill, then its `F x N x P` product reordered into the
    `N x F x OH x OW` result by an elementwise copy."""
    x, w = op.inputs
    (init,) = op.outputs
    x_type = cast(TensorType[Attribute], x.type)
    init_type = cast(TensorType[Attribute], init.type)
    element = init_type.get_element_type()
    merged = shape.batch * shape.pixels
    steps = [max(multiple, 1) for multiple in multiples]
    extents = [shape.filters, shape.reduction, merged]
    filters, rows, columns = (
        padded_ranges(extents, steps, max_growth_percent) or extents
    )
    columns_empty, gather = _gather(
        x, shape, x_type.get_element_type(), (rows, columns), merged_images=True
    )
    rewriter.insert_op([columns_empty, gather])
    weights_value = _weights_matrix(w, filters, rows, rewriter)
    fill = init.owner
    assert isinstance(fill, linalg.FillOp | GenericOp)
    product_type = TensorType(element, [filters, columns])
    product_empty = tensor.EmptyOp([], product_type)
    product_fill = fill_like(fill, product_empty.tensor, product_type)
    rewriter.insert_op([product_empty, product_fill])
    maps = [
        AffineMap.from_callable(lambda f, q, k: (f, k)),
        AffineMap.from_callable(lambda f, q, k: (k, q)),
        AffineMap.from_callable(lambda f, q, k: (f, q)),
    ]
    product = GenericOp(
        [weights_value, gather.results[0]],
        [product_fill.results[0]],
        _swapped_body(op, rewriter),
        ArrayAttr([AffineMapAttr(m) for m in maps]),
        ArrayAttr(
            [IteratorTypeAttr(IteratorType.PARALLEL)] * 2
            + [IteratorTypeAttr(IteratorType.REDUCTION)]
        ),
        [product_type],
    )
    rewriter.insert_op(product)
    result: SSAValue = product.results[0]
    if (filters, columns) != (shape.filters, merged):
        corner_type = TensorType(element, [shape.filters, merged])
        corner = tensor.ExtractSliceOp(
            result, [0, 0], corner_type.get_shape(), [1, 1], corner_type
        )
        rewriter.insert_op(corner)
        result = corner.result
    by_image_type = TensorType(element, [shape.filters, shape.batch, shape.pixels])
    by_image = expand_op(result, [[0], [1, 2]], by_image_type)
    flat_type = TensorType(element, [shape.batch, shape.filters, shape.pixels])
    reordered_empty = tensor.EmptyOp([], flat_type)
    body = Block(arg_types=[element, element])
    body.add_op(LinalgYieldOp(body.args[0]))
    reorder = GenericOp(
        [by_image.result],
        [reordered_empty.tensor],
        Region(body),
        ArrayAttr(
            [
                AffineMapAttr(AffineMap.from_callable(lambda n, f, p: (f, n, p))),
                AffineMapAttr(AffineMap.identity(3)),
            ]
        ),
        ArrayAttr([IteratorTypeAttr(IteratorType.PARALLEL)] * 3),
        [flat_type],
    )
    reorder.location = op.location
    rewriter.insert_op([by_image, reordered_empty, reorder])
    output = expand_op(reorder.results[0], [[0], [1], [2, 3]], init_type)
    rewriter.replace_op(op, output)
    _erase_dead_operands(x, init, rewriter)


def _rewrite_row_tiled(
    op: Conv2DNchwFchwOp, shape: _ConvShape, rows: int, rewriter: PatternRewriter
) -> None:
    """The row-tiled form (see the module doc): `T = OH / rows` tiles of
    `rows` output rows per image, the columns of each a `K x rows * OW`
    matrix, the product a batch of `N x T` matmuls writing the result
    where it lies, `N x F x T x Q` (Q = rows * OW), a reshape of
    `N x F x OH x OW`."""
    x, w = op.inputs
    (init,) = op.outputs
    x_type = cast(TensorType[Attribute], x.type)
    w_type = cast(TensorType[Attribute], w.type)
    init_type = cast(TensorType[Attribute], init.type)
    element = init_type.get_element_type()
    out_rows, out_columns = shape.output
    tiles = out_rows // rows
    # [N, F, OH, OW] -> [N, F, T, rows, OW] -> [N, F, T, Q]
    by_tile = [[0], [1], [2, 3], [4]]
    tiled_type = TensorType(
        element, [shape.batch, shape.filters, tiles, rows, out_columns]
    )
    pixels_of_tile = [[0], [1], [2], [3, 4]]
    product_type = TensorType(
        element, [shape.batch, shape.filters, tiles, rows * out_columns]
    )
    ops: list[Operation] = []
    columns_empty, gather = _row_tile_gather(x, shape, x_type.get_element_type(), rows)
    gathered_type = cast(TensorType[Attribute], gather.results[0].type)
    column_groups = [[0], [1], [2, 3, 4], [5, 6]]
    columns = collapse_op(
        gather.results[0], column_groups, collapsed_type(gathered_type, column_groups)
    )
    weights_groups = [[0], [1, 2, 3]]
    weights = collapse_op(w, weights_groups, collapsed_type(w_type, weights_groups))
    ops += [columns_empty, gather, columns, weights]
    fill = init.owner
    if _is_filled(init):
        assert isinstance(fill, linalg.FillOp | GenericOp)
        empty = tensor.EmptyOp([], product_type)
        ops += [empty, fill_like(fill, empty.tensor, product_type)]
    else:
        split = expand_op(init, by_tile, tiled_type)
        ops += [split, collapse_op(split.result, pixels_of_tile, product_type)]
    product_init = ops[-1].results[0]
    # Loops (n, t, f, q, k): the batch of images and tiles first; the output
    # keeps the result's order, the tiles between the filters and pixels.
    maps = [
        AffineMap.from_callable(lambda n, t, f, q, k: (f, k)),
        AffineMap.from_callable(lambda n, t, f, q, k: (n, t, k, q)),
        AffineMap.from_callable(lambda n, t, f, q, k: (n, f, t, q)),
    ]
    rewriter.insert_op(ops)
    product = GenericOp(
        [weights.result, columns.result],
        [product_init],
        _swapped_body(op, rewriter),
        ArrayAttr([AffineMapAttr(m) for m in maps]),
        ArrayAttr(
            [IteratorTypeAttr(IteratorType.PARALLEL)] * 4
            + [IteratorTypeAttr(IteratorType.REDUCTION)]
        ),
        [product_type],
    )
    unmerged = expand_op(product.results[0], pixels_of_tile, tiled_type)
    result = collapse_op(unmerged.result, by_tile, init_type)
    rewriter.insert_op([product, unmerged])
    rewriter.replace_op(op, result)
    _erase_dead_operands(x, init, rewriter)


# --------------------------------------------------------------------------
# NHWC: `linalg.conv_2d_nhwc_hwcf` (`linalg-convert-to-nhwc`'s convolutions)
# --------------------------------------------------------------------------


def _zero_outside(
    value: SSAValue, inside: list[SSAValue], element: Attribute, ib: _IndexBuilder
) -> SSAValue:
    """`value` where every predicate of `inside` holds, else zero (a padded
    product's margin); `value` itself when there is none."""
    if not inside:
        return value
    real = inside[0]
    for other in inside[1:]:
        real = ib.add(arith.AndIOp(real, other))
    margin = ib.add(arith.ConstantOp(_zero_attribute(element)))
    return ib.add(arith.SelectOp(real, value, margin))


@dataclass(frozen=True)
class _WindowPosition:
    """An element of an NHWC convolution's window: the output pixel, the
    tap and the channel it multiplies."""

    image: SSAValue
    out_row: SSAValue
    out_column: SSAValue
    tap_row: SSAValue
    tap_column: SSAValue
    channel: SSAValue


def _read_nhwc_window(
    x: SSAValue,
    shape: _ConvShape,
    at: _WindowPosition,
    element: Attribute,
    ib: _IndexBuilder,
) -> SSAValue:
    """The NHWC input element window position `at` reads, `x[n, oh * sh +
    kh * dh, ow * sw + kw * dw, c]`, through the input's constant padding
    of rows and columns when it has one."""
    image_row = ib.window(at.out_row, shape.strides[0], at.tap_row, shape.dilations[0])
    image_column = ib.window(
        at.out_column, shape.strides[1], at.tap_column, shape.dilations[1]
    )
    position = [at.image, image_row, image_column, at.channel]
    padding = spatial_padding(x, NHWC_SPATIAL)
    if padding is None:
        return ib.add(ExtractOp(x, position, element))
    return read_padded(padding, position, element, ib.add)


def _all_parallel_generic(empty: tensor.EmptyOp, body: Block, rank: int) -> GenericOp:
    """An all-parallel generic of `rank` loops writing `empty` through the
    identity map, computing each element by `body`."""
    result_type = empty.tensor.type
    return GenericOp(
        [],
        [empty.tensor],
        Region(body),
        ArrayAttr([AffineMapAttr(AffineMap.identity(rank))]),
        ArrayAttr([IteratorTypeAttr(IteratorType.PARALLEL)] * rank),
        [result_type],
    )


def _nhwc_gather(
    x: SSAValue, shape: _ConvShape, element: Attribute, extents: tuple[int, int]
) -> tuple[tensor.EmptyOp, GenericOp]:
    """The NHWC im2col generic, `col[m, k] = x[n, oh * sh + kh * dh,
    ow * sw + kw * dw, c]` with m = (n, oh, ow) (every image's pixels) and
    k = (kh, kw, c) row-major (the channels innermost: neighbouring k read
    neighbouring input elements), and the empty tensor it fills. `extents`
    are the columns' rows and reduction (N * P and K, or multiples of the
    matmul's tiles past them): the margins hold zeros, as `_gather`'s do. A
    constant padding of the input's rows and columns is read through its
    source."""
    rows, reduction = extents
    col_type = TensorType(element, [rows, reduction])
    empty = tensor.EmptyOp([], col_type)
    body = Block(arg_types=[element])
    ib = _IndexBuilder(body)
    m, k = (ib.add(IndexOp(dim)) for dim in range(2))
    inside: list[SSAValue] = []
    if rows != shape.batch * shape.pixels:
        m, row_inside = ib.clamped(m, shape.batch * shape.pixels)
        inside.append(row_inside)
    if reduction != shape.reduction:
        k, reduction_inside = ib.clamped(k, shape.reduction)
        inside.append(reduction_inside)
    out_rows, out_columns = shape.output
    kw_extent = shape.kernel[1]
    channel = ib.rem(k, shape.channels)
    tap_column = ib.rem(ib.div(k, shape.channels), kw_extent)
    tap_row = ib.div(k, shape.channels * kw_extent)
    image = ib.div(m, shape.pixels)
    out_row = ib.rem(ib.div(m, out_columns), out_rows)
    out_column = ib.rem(m, out_columns)
    at = _WindowPosition(image, out_row, out_column, tap_row, tap_column, channel)
    value = _read_nhwc_window(x, shape, at, element, ib)
    body.add_op(LinalgYieldOp(_zero_outside(value, inside, element, ib)))
    return empty, _all_parallel_generic(empty, body, 2)


def _nhwc_window_gather(
    x: SSAValue, shape: _ConvShape, element: Attribute
) -> tuple[tensor.EmptyOp, GenericOp, tensor.CollapseShapeOp]:
    """The NHWC im2col over the window's loops, `col[n, oh, ow, kh, kw, c] =
    x[n, oh * sh + kh * dh, ow * sw + kw * dw, c]` (every index a loop's: no
    division; the innermost loop copies one pixel's channels), the empty
    tensor it fills, and its collapse to the `(N * P) x K` columns."""
    out_rows, out_columns = shape.output
    kh_extent, kw_extent = shape.kernel
    col_type = TensorType(
        element,
        [shape.batch, out_rows, out_columns, kh_extent, kw_extent, shape.channels],
    )
    empty = tensor.EmptyOp([], col_type)
    body = Block(arg_types=[element])
    ib = _IndexBuilder(body)
    # Every index a loop's, in the order of the columns' rows and reduction.
    at = _WindowPosition(*(ib.add(IndexOp(dim)) for dim in range(6)))
    body.add_op(LinalgYieldOp(_read_nhwc_window(x, shape, at, element, ib)))
    gather = _all_parallel_generic(empty, body, 6)
    groups = [[0, 1, 2], [3, 4, 5]]
    columns = collapse_op(gather.results[0], groups, collapsed_type(col_type, groups))
    return empty, gather, columns


def _zero_padded_matrix(
    matrix: SSAValue, padded_shape: tuple[int, int], element: Attribute
) -> tuple[tensor.EmptyOp, GenericOp]:
    """`matrix` (2-D) grown to `padded_shape` with zeros past its rows and
    columns: one elementwise op (a pad would be a fill and a copy)."""
    shape = cast(TensorType[Attribute], matrix.type).get_shape()
    padded_type = TensorType(element, list(padded_shape))
    empty = tensor.EmptyOp([], padded_type)
    body = Block(arg_types=[element])
    ib = _IndexBuilder(body)
    indices = [ib.add(IndexOp(dim)) for dim in range(2)]
    inside: list[SSAValue] = []
    for dim, (extent, padded) in enumerate(zip(shape, padded_shape, strict=True)):
        if padded != extent:
            indices[dim], dim_inside = ib.clamped(indices[dim], extent)
            inside.append(dim_inside)
    read = ib.add(ExtractOp(matrix, indices, element))
    body.add_op(LinalgYieldOp(_zero_outside(read, inside, element, ib)))
    return empty, _all_parallel_generic(empty, body, 2)


def _product_init(
    init: SSAValue,
    groups: list[list[int]],
    flat_type: TensorType[Attribute],
    padded_shape: list[int],
) -> list[Operation]:
    """Ops computing the product's init of `padded_shape` from the
    convolution's `init` collapsed by `groups` to `flat_type`: a fill of an
    empty tensor when `init` is a fill (as torch-mlir writes it), else the
    collapsed init, padded with zeros where `padded_shape` is larger. The
    last op's result is the init."""
    padded_type = TensorType(flat_type.get_element_type(), padded_shape)
    fill = init.owner
    if _is_filled(init):
        assert isinstance(fill, linalg.FillOp | GenericOp)
        empty = tensor.EmptyOp([], padded_type)
        return [empty, fill_like(fill, empty.tensor, padded_type)]
    flat = collapse_op(init, groups, flat_type)
    if list(flat_type.get_shape()) == padded_shape:
        return [flat]
    zero = arith.ConstantOp(_zero_attribute(flat_type.get_element_type()))
    high = [
        padded - extent
        for padded, extent in zip(padded_shape, flat_type.get_shape(), strict=True)
    ]
    pad = pad_op(flat.result, [0] * len(high), high, zero.result)
    return [flat, zero, pad]


def _erase_dead_operands(
    x: SSAValue, init: SSAValue, rewriter: PatternRewriter
) -> None:
    """The pad the gather read through, the fill the product replaced, once
    nothing reads them."""
    for dead in (x.owner, init.owner):
        if (
            isinstance(dead, tensor.PadOp | linalg.FillOp | GenericOp)
            and not dead.results[0].uses
        ):
            rewriter.erase(dead)


# NHWC groups: every image's pixels, (N, H, W, C) -> (N*H*W, C); the
# filter's taps and channels, (KH, KW, C, F) -> (KH*KW*C, F).
_NHWC_PIXEL_GROUPS = [[0, 1, 2], [3]]
_HWCF_REDUCTION_GROUPS = [[0, 1, 2], [3]]


@dataclass
class NhwcConvToIm2col(ConvToIm2col):
    """`linalg.conv_2d_nhwc_hwcf` as an im2col gather and one matmul
    `(N * P) x K @ K x F` (see the module doc), with `ConvToIm2col`'s options:
    the pixel, reduction and filter multiples pad the product's rows, its
    reduction and its columns."""

    @classmethod
    def like(cls, pattern: ConvToIm2col) -> NhwcConvToIm2col:
        """The NHWC pattern with `pattern`'s options."""
        return cls(**{f.name: getattr(pattern, f.name) for f in fields(pattern)})

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: Conv2DNhwcHwcfOp, rewriter: PatternRewriter
    ) -> None:
        shape = conv_shape(op)
        if shape is None:
            return
        x, w = op.inputs
        (init,) = op.outputs
        x_type = cast(TensorType[Attribute], x.type)
        w_type = cast(TensorType[Attribute], w.type)
        init_type = cast(TensorType[Attribute], init.type)
        half = takes_tensor_cores(
            [x_type.get_element_type(), w_type.get_element_type()],
            init_type.get_element_type(),
        )
        gathered = not (shape.is_pointwise and spatial_padding(x, NHWC_SPATIAL) is None)
        steps = self.padding_multiples(gathered=gathered, half=half)
        # The product's rows are every image's pixels (N * P).
        unpadded = _MatmulExtents(
            shape.filters, shape.reduction, shape.batch * shape.pixels
        )
        padded = padded_ranges(
            [unpadded.filters, unpadded.reduction, unpadded.pixels],
            [max(step, 1) for step in steps],
            self.max_growth_percent,
        )
        extents = _MatmulExtents(*padded) if padded else unpadded
        # Padded pixels or K make even a pointwise convolution a gather.
        pointwise = not gathered and (extents.pixels, extents.reduction) == (
            unpadded.pixels,
            unpadded.reduction,
        )
        # The CPU's form (`column-tile-bytes`): the gather over the window's
        # loops, without divisions. The GPU's gather stays 2-D, the
        # operand its staging computes tile by tile (an implicit GEMM).
        window_loops = bool(self.column_tile_bytes) and extents == unpadded
        _rewrite_nhwc(op, shape, extents, pointwise, window_loops, rewriter)


def _rewrite_nhwc(
    op: Conv2DNhwcHwcfOp,
    shape: _ConvShape,
    extents: _MatmulExtents,
    pointwise: bool,
    window_loops: bool,
    rewriter: PatternRewriter,
) -> None:
    """The flat NHWC form: `col[m, k]` over every image's pixels m (or the
    input reshaped, for a `pointwise` convolution), the weights `K x F`,
    and one matmul `(N * P) x K @ K x F` into `N * P x F` (its corner, when
    `extents` pad it), which is the output reshaped."""
    x, w = op.inputs
    (init,) = op.outputs
    x_type = cast(TensorType[Attribute], x.type)
    w_type = cast(TensorType[Attribute], w.type)
    init_type = cast(TensorType[Attribute], init.type)
    ops: list[Operation] = []
    if pointwise:
        # A 1x1 convolution of stride 1 reads input pixel m for output pixel
        # m, its channels in the columns' order: the input, reshaped.
        columns_op: Operation = collapse_op(
            x, _NHWC_PIXEL_GROUPS, collapsed_type(x_type, _NHWC_PIXEL_GROUPS)
        )
        ops.append(columns_op)
    elif window_loops:
        *gather_ops, columns_op = _nhwc_window_gather(
            x, shape, x_type.get_element_type()
        )
        ops += [*gather_ops, columns_op]
    else:
        columns_empty, columns_op = _nhwc_gather(
            x, shape, x_type.get_element_type(), (extents.pixels, extents.reduction)
        )
        ops += [columns_empty, columns_op]
    weights: Operation = collapse_op(
        w, _HWCF_REDUCTION_GROUPS, collapsed_type(w_type, _HWCF_REDUCTION_GROUPS)
    )
    ops.append(weights)
    if (extents.reduction, extents.filters) != (shape.reduction, shape.filters):
        padded_empty, weights = _zero_padded_matrix(
            weights.results[0],
            (extents.reduction, extents.filters),
            w_type.get_element_type(),
        )
        ops += [padded_empty, weights]
    flat_type = collapsed_type(init_type, _NHWC_PIXEL_GROUPS)
    product_shape = [extents.pixels, extents.filters]
    # The init right before the product: its fill runs in the matmul's
    # kernel (`linalg-tile-for-gpu`'s prologue).
    ops += _product_init(init, _NHWC_PIXEL_GROUPS, flat_type, product_shape)
    product_init = ops[-1].results[0]
    # Loops (m, f, k): the pixels are the product's rows, the filters its
    # columns, so the output `N * P x F` is the NHWC result reshaped.
    maps = [
        AffineMap.from_callable(lambda m, f, k: (m, k)),
        AffineMap.from_callable(lambda m, f, k: (k, f)),
        AffineMap.from_callable(lambda m, f, k: (m, f)),
    ]
    product = GenericOp(
        [columns_op.results[0], weights.results[0]],
        [product_init],
        # The operands in the convolution's order: its body as it is.
        rewriter.move_region_contents_to_new_regions(op.regions[0]),
        ArrayAttr([AffineMapAttr(m) for m in maps]),
        ArrayAttr(
            [IteratorTypeAttr(IteratorType.PARALLEL)] * 2
            + [IteratorTypeAttr(IteratorType.REDUCTION)]
        ),
        [product_init.type],
    )
    ops.append(product)
    flat_result = product.results[0]
    if product_shape != list(flat_type.get_shape()):
        # The output's pixels and filters: the padded product's corner.
        corner = tensor.ExtractSliceOp(
            flat_result, [0, 0], flat_type.get_shape(), [1, 1], flat_type
        )
        ops.append(corner)
        flat_result = corner.result
    rewriter.insert(ops)
    rewriter.replace(op, expand_op(flat_result, _NHWC_PIXEL_GROUPS, init_type))
    _erase_dead_operands(x, init, rewriter)


@dataclass(frozen=True)
class LinalgConvToIm2colPass(ModulePass):
    """2-D NCHW and NHWC convolutions as an im2col gather and matmuls (see
    the module doc)."""

    name = PASS_NAME

    # `lower-to-cuda` passes its matmul block's columns (`matmul-block`'s
    # second size; its rows with `nhwc=true`, where the NHWC product's rows
    # are the pixels): the product then needs no padded copies
    # (`linalg-pad-contractions`). 0: the output's pixels, unpadded.
    pixel_multiple: int = 0
    # `lower-to-cuda` passes its K step (`matmul-block`'s third size): a 7x7
    # stem over 3 channels (K = 147) then has 160 rows of zeros past K, and
    # its weights are padded by one small elementwise op, not copies.
    reduction_multiple: int = 0
    # `lower-to-cuda` passes its matmul block's rows: MobileNet-v2's 192
    # expanded channels become 256 rows of the product (and of the weights),
    # as `linalg-pad-contractions` would pad them, by copies.
    filter_multiple: int = 0
    max_growth_percent: int = MAX_PADDING_GROWTH_PERCENT
    # The reduction's multiple for f16/bf16 convolutions into f32 (0: the
    # same as `reduction-multiple`): `lower-to-cuda` passes the warpgroup
    # products' K step, as it pads their matmuls' K
    # (`linalg-pad-contractions{half-reduction-multiple}`).
    half_reduction_multiple: int = 0
    # `lower-to-cuda` passes its implicit GEMMs' block (`conv-block`: filters,
    # pixels, K): a convolution that needs a gather (any but an unpadded 1x1
    # stride-1 one, whose columns are its input) pads to these multiples
    # instead, so a 56x56 image's 3136 pixels, a multiple of 64, stay
    # unpadded (and its epilogue fused), where 128 would pad them to 3200.
    # f16/bf16 convolutions into f32 keep the multiples above. Empty: the
    # same multiples as any convolution.
    gather_multiples: tuple[int, ...] = ()
    # `lower-to-cuda` passes 4 x its implicit GEMMs' pixel tile: a batch of
    # images of fewer output pixels each (ResNet's 14x14 and 7x7 stages) is
    # one matmul over every image's columns side by side (cuDNN's N x P
    # columns), not a batch of short ones: 8 images of 7x7 are 392 columns,
    # 7 tiles of 64, where each image alone was one tile of 49 and 8 such
    # images filled 64 blocks of 132 multiprocessors. 0: never.
    merge_images_below: int = 0
    # `lower-to-c` passes half its L2 cache: the row-tiled form (see the
    # module doc), each tile's columns within this many bytes; NHWC
    # convolutions' gathers over the window's loops. 0: off.
    column_tile_bytes: int = 0
    # The row-tiled form only with at least this many tiles over the batch
    # (`lower-to-c` passes as many as `linalg-pack-operands` runs one
    # matrix per parallel iteration for); else the flat form.
    min_row_tiles: int = 8
    # The vector unit (`CpuHardware`, which `lower-to-c` passes): the
    # row-tiled form only where its product holds a whole register tile.
    vector_bits: int = 256
    vector_registers: int = 16

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        multiples = (
            self.pixel_multiple,
            self.reduction_multiple,
            self.filter_multiple,
            self.half_reduction_multiple,
        )
        if self.gather_multiples and (
            len(self.gather_multiples) != 3 or min(self.gather_multiples) < 1
        ):
            raise PassFailedException(
                f"{PASS_NAME}: gather-multiples takes 3 positive sizes "
                "(filters, pixels, reduction)"
            )
        if (
            min(multiples) < 0
            or self.max_growth_percent < 0
            or self.column_tile_bytes < 0
            or self.merge_images_below < 0
            or self.min_row_tiles < 1
        ):
            raise PassFailedException(
                f"{PASS_NAME}: pixel-multiple, reduction-multiple, "
                "filter-multiple, half-reduction-multiple, max-growth-percent, "
                "column-tile-bytes and merge-images-below must be >= 0, "
                "min-row-tiles >= 1"
            )
        # The pattern's options are the pass's own, by name.
        pattern = ConvToIm2col(
            **{field.name: getattr(self, field.name) for field in fields(ConvToIm2col)}
        )
        PatternRewriteWalker(
            GreedyRewritePatternApplier([pattern, NhwcConvToIm2col.like(pattern)]),
            apply_recursively=False,
        ).rewrite_module(op)
