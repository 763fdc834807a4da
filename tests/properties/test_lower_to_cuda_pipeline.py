"""`lower-to-cuda` as a whole keeps meaning: random `nn` programs, every stage
checked on its own (the pipeline expands into its passes), the kernels on the
grid emulator."""

from __future__ import annotations

from irkit.testing import check_pass, nn_programs


def test_lower_to_cuda_keeps_meaning_on_random_programs() -> None:
    check_pass(
        "lower-to-cuda{matmul-block=4,2,3 matmul-thread=2,2 elementwise-block=4}",
        nn_programs(max_ops=4, max_dim=5),
    )


def test_lower_to_cuda_keeps_meaning_on_linear_layers() -> None:
    # Matmuls with transposed operands, biases and activations: transposes
    # fold into the matmul's maps (`linalg-fuse-elementwise`), fills and
    # elementwise epilogues run in its kernel (`linalg-tile-for-gpu`).
    check_pass(
        "lower-to-cuda{matmul-block=4,2,3 matmul-thread=2,2 elementwise-block=4}",
        nn_programs(
            max_ops=4,
            max_dim=5,
            ops={"nn.matmul", "nn.transpose", "nn.add", "nn.relu", "nn.gelu"},
        ),
    )
