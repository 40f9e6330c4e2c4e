"""Finite-element meshes and stencil grids for the RCM-against-SciPy checks
(tests/python/test_reorder.py, bench/rcm_vs_scipy.py --meshes).

Each generator returns (n, src, dst): the undirected edges once each
(src < dst before the shuffle), int64, with the vertex ids shuffled by a seeded
permutation so that an ordering has work to do (the generators' own row-major
numbering is already banded). numpy only, except the unstructured mesh, which
triangulates with scipy.spatial.Delaunay.
"""
import numpy as np

SEED = 61


def _grid_ids(shape, keep=None):
    """Row-major ids of a grid's points; with `keep` (a boolean array of
    `shape`), the kept points numbered 0..k-1 and the others -1."""
    if keep is None:
        return np.arange(np.prod(shape), dtype=np.int64).reshape(shape)
    ids = np.full(shape, -1, dtype=np.int64)
    ids[keep] = np.arange(int(keep.sum()), dtype=np.int64)
    return ids


def _stencil_edges(ids, offsets):
    """Edges from every point to its neighbour at each offset (a tuple per
    axis, one half of a symmetric stencil), both ends kept (id >= 0)."""
    src, dst = [], []
    for off in offsets:
        a = tuple(slice(max(0, -o), ids.shape[k] - max(0, o)) for k, o in enumerate(off))
        b = tuple(slice(max(0, o), ids.shape[k] + min(0, o)) for k, o in enumerate(off))
        u, v = ids[a].ravel(), ids[b].ravel()
        both = (u >= 0) & (v >= 0)
        src.append(u[both])
        dst.append(v[both])
    return np.concatenate(src), np.concatenate(dst)


def _shuffled(n, src, dst, seed):
    """The same graph with its ids permuted at random (seeded)."""
    new_of_old = np.random.default_rng(seed).permutation(n).astype(np.int64)
    return n, new_of_old[src], new_of_old[dst]


def _from_grid(ids, offsets, seed):
    src, dst = _stencil_edges(ids, offsets)
    return _shuffled(int(ids.max()) + 1, src, dst, seed)


FIVE_POINT = [(0, 1), (1, 0)]
NINE_POINT = [(0, 1), (1, 0), (1, 1), (1, -1)]
SEVEN_POINT = [(0, 0, 1), (0, 1, 0), (1, 0, 0)]
DIAGONAL_TRIANGLES = [(0, 1), (1, 0), (1, 1)]  # each grid square cut along one diagonal


def grid_2d(rows, cols, seed=SEED):
    """rows x cols points, 5-point stencil (the Laplacian's)."""
    return _from_grid(_grid_ids((rows, cols)), FIVE_POINT, seed)


def nine_point(rows, cols, seed=SEED):
    """rows x cols points, 9-point stencil (diagonal neighbours too)."""
    return _from_grid(_grid_ids((rows, cols)), NINE_POINT, seed)


def triangulated_grid(rows, cols, seed=SEED):
    """A structured triangle mesh: the rows x cols grid, each square cut
    along its main diagonal (P1 finite elements on a rectangle)."""
    return _from_grid(_grid_ids((rows, cols)), DIAGONAL_TRIANGLES, seed)


def l_shape(size, seed=SEED):
    """A size x size grid without its top-right quarter, 5-point stencil."""
    keep = np.ones((size, size), dtype=bool)
    keep[: size // 2, size // 2:] = False
    return _from_grid(_grid_ids(keep.shape, keep), FIVE_POINT, seed)


def grid_with_holes(size, holes=4, hole=None, seed=SEED):
    """A size x size grid, 5-point stencil, with holes x holes square holes
    (side `hole`, default size / (3 * holes)) spread evenly inside it: the
    level sets of a search bend around them."""
    hole = hole or size // (3 * holes)
    keep = np.ones((size, size), dtype=bool)
    step = size // holes
    for i in range(holes):
        for j in range(holes):
            r, c = i * step + (step - hole) // 2, j * step + (step - hole) // 2
            keep[r: r + hole, c: c + hole] = False
    return _from_grid(_grid_ids(keep.shape, keep), FIVE_POINT, seed)


def grid_3d(a, b, c, seed=SEED):
    """a x b x c points, 7-point stencil."""
    return _from_grid(_grid_ids((a, b, c)), SEVEN_POINT, seed)


def delaunay_annulus(points, inner=0.4, seed=SEED):
    """An unstructured triangle mesh: scipy.spatial.Delaunay of `points`
    random points in the annulus inner < r < 1, keeping the triangles whose
    centroid lies in the annulus (the hole stays open); edges of the kept
    triangles."""
    from scipy.spatial import Delaunay

    rng = np.random.default_rng(seed)
    r = np.sqrt(rng.uniform(inner * inner, 1.0, points))  # uniform over the area
    t = rng.uniform(0.0, 2 * np.pi, points)
    xy = np.column_stack([r * np.cos(t), r * np.sin(t)])
    tri = Delaunay(xy).simplices.astype(np.int64)
    centroid = xy[tri].mean(axis=1)
    tri = tri[np.hypot(centroid[:, 0], centroid[:, 1]) > inner]
    e = np.concatenate([tri[:, [0, 1]], tri[:, [1, 2]], tri[:, [0, 2]]])
    e = np.unique(np.sort(e, axis=1), axis=0)
    used = np.unique(e)  # points only in dropped triangles go, ids compacted
    compact = np.full(points, -1, dtype=np.int64)
    compact[used] = np.arange(used.size, dtype=np.int64)
    return _shuffled(int(used.size), compact[e[:, 0]], compact[e[:, 1]], seed + 1)


# name -> (generator, arguments): the meshes both the test and the bench use.
MESHES = {
    "grid 300x300 (5-pt)": (grid_2d, (300, 300)),
    "grid 1000x40 (5-pt)": (grid_2d, (1000, 40)),
    "L-shape 300 (5-pt)": (l_shape, (300,)),
    "grid 240x240, 16 holes (5-pt)": (grid_with_holes, (240,)),
    "grid 40x40x40 (7-pt)": (grid_3d, (40, 40, 40)),
    "grid 200x200 (9-pt)": (nine_point, (200, 200)),
    "triangulated grid 250x150": (triangulated_grid, (250, 150)),
    "Delaunay annulus, 30k points": (delaunay_annulus, (30000,)),
}


def mesh(name):
    """(n, src, dst) of MESHES[name]."""
    make, args = MESHES[name]
    return make(*args)


def bandwidth_under(old_of_new, src, dst):
    """max |new(u) - new(v)| over the edges, under the order old_of_new."""
    new_of_old = np.empty(len(old_of_new), dtype=np.int64)
    new_of_old[np.asarray(old_of_new, dtype=np.int64)] = np.arange(len(old_of_new), dtype=np.int64)
    return int(np.abs(new_of_old[src] - new_of_old[dst]).max()) if len(src) else 0
