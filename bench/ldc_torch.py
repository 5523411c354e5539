#!/usr/bin/env python3
"""The step of thorns/LidDrivenCavity (issue 27) written directly in PyTorch: the peer a Python user
would reach for, timed eager and torch.compile'd on the same device in the same run, each stage
against its byte floor and against the device's copy bandwidth measured in the same run.

The algorithm is the thorn's, on a MAC grid padded as the thorn's grid functions are: (N+2)^3
points (2D: 3 x (N+2)^2), torch layout [z][y][x], index 0 and N+1 the ghost or wall points. One step:
momentum (advection with alpha-weighted upwinding, viscosity) from the previous level, the velocity
boundary, the divergence, `--sweeps` Jacobi sweeps of the pressure with Neumann walls (no residual
check: the benchmark setting), the pressure correction, the velocity boundary again.

Usage:
  ldc_torch.py [--n 256] [--dims 3] [--precision fp32|fp64] [--mode eager|compile|both]
               [--compile-scope step|stages|both] [--device cuda|cpu] ...
      the benchmark: eager, each stage torch.compile'd ("compiled stages"), the whole step
      torch.compile'd ("compiled step"), as --mode and --compile-scope ask; per-step and per-stage
      times, GB/s against each stage's byte floor, % of a copy's bandwidth, the faster compiled
      variant named, and a markdown table at the end for bench/RESULTS.md
  ldc_torch.py --check DIR [--n 16] [--steps K] [--dt DT] [--nu NU] [--alpha A] [--thorn-output D]
      K steps from rest: the final vx, vy, vz, p of the numpy reference and of torch to DIR/*.npz,
      torch compared with the reference (judged in fp64, printed in fp32); with --thorn-output the
      thorn's IOHDF5 files in D (<var>.h5, iteration K) compared with the reference too
  ldc_torch.py --self-test [--device cpu] [--mode eager]
      plain loops against the vectorised numpy reference, the projection's divergence, and the
      torch stages against the reference in fp64 (16^3 and 32x32x1, to 1e-12); without torch the
      torch stages run on numpy arrays and the torch part is reported as skipped
A difference is max |a - b| over the interior points 1..N, relative to the field's largest value."""
import argparse
import math
import os
import statistics
import sys
import tempfile
import time

import numpy as np

try:
    import torch
except ImportError:  # the numpy parts (--self-test, --check's reference) still run
    torch = None

X, Y, Z = "x", "y", "z"
# Each axis's dimension in the torch layout [z][y][x], and its unit offset (dz, dy, dx).
TORCH_DIM = {X: 2, Y: 1, Z: 0}
UNIT = {X: (0, 0, 1), Y: (0, 1, 0), Z: (1, 0, 0)}
NO_SHIFT = (0, 0, 0)
FP64_TOLERANCE = 1e-12  # largest difference from the reference, relative to the field's largest value


class config:
    """The grid and the physics of one run. `n` is the interior cells per axis (nx, ny, nz); nz = 1
    in 2D, where the z terms are left out and vz stays 0."""

    def __init__(self, n, dims, dt, nu, alpha, lid_velocity=1.0, sweeps=20, jacobi_weight=1.0):
        self.n = {X: n[0], Y: n[1], Z: n[2]}
        self.dims = dims
        self.axes = (X, Y, Z)[:dims]  # the axes with terms: the velocity components too
        self.h = {X: 1.0 / n[0], Y: 1.0 / n[1], Z: 1.0 / n[2] if dims == 3 else 1.0 / n[0]}
        self.dt, self.nu, self.alpha = dt, nu, alpha
        self.lid_velocity, self.sweeps, self.jacobi_weight = lid_velocity, sweeps, jacobi_weight

    def torch_shape(self):
        return (self.n[Z] + 2, self.n[Y] + 2, self.n[X] + 2)

    def interior_points(self):
        return self.n[X] * self.n[Y] * self.n[Z]


def stable_parameters(n, dims, reynolds, lid_velocity, cfl):
    """nu = U L / Re (L = 1, the cavity's width), and dt within the advective and viscous limits."""
    h = 1.0 / n
    nu = lid_velocity / reynolds
    return cfl * min(h / lid_velocity, h * h / (2 * dims * nu)), nu


# ------------------------------------------------------------------------- the step in PyTorch

def shifted(f, offset):
    """The interior points 1..N of f on each axis, moved by offset (dz, dy, dx)."""
    return f[tuple([slice(1 + o, size - 1 + o) for o, size in zip(offset, f.shape)])]


def plane(axis, index):
    """The index of one whole plane across `axis` (every point of the other two axes)."""
    where = [slice(None)] * 3
    where[TORCH_DIM[axis]] = index
    return tuple(where)


def interior_faces(axis, shape, back=0):
    """The faces 2..N along `axis` (the walls 1 and N+1 left out: the boundary sets them), cells
    1..N across; `back` = 1 moves the index one point down along `axis`."""
    where = [slice(1, size - 1) for size in shape]
    where[TORCH_DIM[axis]] = slice(2 - back, shape[TORCH_DIM[axis]] - 1 - back)
    return tuple(where)


# (List comprehensions rather than generator expressions in what torch.compile traces.)
def plus(a, b):
    return tuple([i + j for i, j in zip(a, b)])


def minus(offset):
    return tuple([-o for o in offset])


class stages:
    """The five stages of the step as functions of tensors, written once for eager and compile.
    Velocities are dicts {x: vx, y: vy, z: vz}; every stage writes its results in place.
    `xp` is the array module (torch; numpy where torch is missing, for the self-test): the stages
    use operators and slicing only, and `xp.copysign`."""

    def __init__(self, cfg, xp, alpha):
        self.cfg, self.xp, self.alpha = cfg, xp, alpha  # alpha: a 0-d array of the run's type
        self.inverse_diagonal = 1.0 / sum(2.0 / cfg.h[d] ** 2 for d in cfg.axes)

    def momentum(self, new, old):
        """new = old + dt (viscosity - convection) at the points 1..N of each component."""
        cfg, h = self.cfg, self.cfg.h
        for c in cfg.axes:
            f = old[c]
            f0 = shifted(f, NO_SHIFT)
            convection = 0.0
            viscosity = 0.0
            for d in cfg.axes:
                f_up, f_down = shifted(f, UNIT[d]), shifted(f, minus(UNIT[d]))
                fa = f_up - f0
                fb = f0 - f_down
                if d == c:
                    a = f0
                else:  # velocity d averaged from its four faces around the point of component c
                    v = old[d]
                    back = minus(UNIT[c])
                    a = 0.25 * (shifted(v, back) + shifted(v, NO_SHIFT) + shifted(v, plus(back, UNIT[d]))
                                + shifted(v, UNIT[d]))
                upwind = self.xp.copysign(self.alpha, a)
                convection = convection + a * (fa + fb + upwind * (fb - fa)) / (2 * h[d])
                viscosity = viscosity + (f_up - 2 * f0 + f_down) / h[d] ** 2
            shifted(new[c], NO_SHIFT)[...] = f0 + cfg.dt * (cfg.nu * viscosity - convection)

    def velocity_boundary(self, v):
        """Every face in the order x lower, x upper, y lower, ..., z upper (the last face wins at
        edges): the normal component 0 on the wall and below a lower one; a tangential ghost
        2 U_wall minus the point inside (U_wall: the lid's velocity for vx on the y upper face).
        In 2D the z faces too (vz stays 0 and is not touched)."""
        cfg = self.cfg
        for d in (X, Y, Z):
            for c in cfg.axes:
                f = v[c]
                if c == d:
                    f[plane(d, 0)] = 0
                    f[plane(d, 1)] = 0
                    f[plane(d, -1)] = 0
                else:
                    lid = cfg.lid_velocity if (c, d) == (X, Y) else 0.0
                    f[plane(d, 0)] = 0.0 - f[plane(d, 1)]
                    f[plane(d, -1)] = 2 * lid - f[plane(d, -2)]

    def divergence(self, v, div):
        """At cells 1..N; the ghost cells of div stay 0."""
        cfg = self.cfg
        total = 0.0
        for d in cfg.axes:
            total = total + (shifted(v[d], UNIT[d]) - shifted(v[d], NO_SHIFT)) / cfg.h[d]
        shifted(div, NO_SHIFT)[...] = total

    def jacobi_sweep(self, p, div, p_new):
        """p_new = (1 - w) p + w J out of place; Neumann walls: each ghost cell first takes the
        value of the cell inside, so that the Laplacian sees the cell's own value across a wall."""
        cfg = self.cfg
        for d in cfg.axes:
            p[plane(d, 0)] = p[plane(d, 1)]
            p[plane(d, -1)] = p[plane(d, -2)]
        neighbours = 0.0
        for d in cfg.axes:
            neighbours = neighbours + (shifted(p, UNIT[d]) + shifted(p, minus(UNIT[d]))) / cfg.h[d] ** 2
        jacobi = (neighbours - shifted(div, NO_SHIFT) / cfg.dt) * self.inverse_diagonal
        w = cfg.jacobi_weight
        shifted(p_new, NO_SHIFT)[...] = jacobi if w == 1 else (1 - w) * shifted(p, NO_SHIFT) + w * jacobi

    def correction(self, v, p):
        """v -= dt grad p at the faces inside the walls (the boundary that follows sets the rest)."""
        cfg = self.cfg
        for d in cfg.axes:
            here = interior_faces(d, p.shape)
            below = interior_faces(d, p.shape, back=1)
            faces = v[d][here]  # a view: -= writes v in place
            faces -= cfg.dt * (p[here] - p[below]) / cfg.h[d]


def make_step(st, sweeps):
    """One step from the velocities `old` to `new`; returns (p, the spare pressure buffer), which
    trade places at every sweep."""

    def step(new, old, p, p_spare, div):
        st.momentum(new, old)
        st.velocity_boundary(new)
        st.divergence(new, div)
        for _ in range(sweeps):
            st.jacobi_sweep(p, div, p_spare)
            p, p_spare = p_spare, p
        st.correction(new, p)
        st.velocity_boundary(new)
        return p, p_spare

    return step


class state:
    """The fields of a run: two levels of the velocities, the pressure and its spare buffer, the
    divergence. Starts at rest, p = 0, with the lid's ghost set by the boundary."""

    def __init__(self, cfg, zeros, st):
        shape = cfg.torch_shape()
        self.velocity = {X: zeros(shape), Y: zeros(shape), Z: zeros(shape)}
        self.previous = {X: zeros(shape), Y: zeros(shape), Z: zeros(shape)}
        self.p, self.p_spare, self.div = zeros(shape), zeros(shape), zeros(shape)
        st.velocity_boundary(self.velocity)

    def advance(self, step):
        self.velocity, self.previous = self.previous, self.velocity
        self.p, self.p_spare = step(self.velocity, self.previous, self.p, self.p_spare, self.div)

    def fields(self):
        return {"vx": self.velocity[X], "vy": self.velocity[Y], "vz": self.velocity[Z], "p": self.p}


# ------------------------------------------------------------------- the numpy reference, [i][j][k]

IJK = {X: 0, Y: 1, Z: 2}  # each axis's index in the reference's layout [i][j][k]


def ijk_unit(axis, k=1):
    o = [0, 0, 0]
    o[IJK[axis]] = k
    return o


def ijk_at(cfg, f, o):
    """f at the points 1..N on each axis, moved by o = [di, dj, dk]."""
    n = cfg.n
    return f[1 + o[0]:n[X] + 1 + o[0], 1 + o[1]:n[Y] + 1 + o[1], 1 + o[2]:n[Z] + 1 + o[2]]


def reference_boundary(cfg, v):
    for d in (X, Y, Z):
        wall = cfg.n[d] + 1
        for side in ("lower", "upper"):
            for c in cfg.axes:
                f = np.moveaxis(v[c], IJK[d], 0)  # a view: the face's planes are f[0] and f[wall]
                if c == d:
                    if side == "lower":
                        f[0] = 0.0
                        f[1] = 0.0
                    else:
                        f[wall] = 0.0
                else:
                    u_wall = cfg.lid_velocity if (c == X and d == Y and side == "upper") else 0.0
                    if side == "lower":
                        f[0] = 2 * u_wall - f[1]
                    else:
                        f[wall] = 2 * u_wall - f[wall - 1]


def reference_divergence(cfg, v):
    """At the cells 1..N."""
    zero = [0, 0, 0]
    return sum((ijk_at(cfg, v[d], ijk_unit(d)) - ijk_at(cfg, v[d], zero)) / cfg.h[d] for d in cfg.axes)


def reference_step(cfg, v, p):
    """One step on numpy arrays indexed [i][j][k] (x first), vectorised, from the spec; v is a dict
    of the velocities, replaced by the new level; returns the new p."""
    h, axes, zero = cfg.h, cfg.axes, [0, 0, 0]

    def at(f, o):
        return ijk_at(cfg, f, o)

    new = {c: np.zeros_like(v[c]) for c in (X, Y, Z)}
    for c in axes:
        f = v[c]
        rate = np.zeros_like(at(f, zero))
        for d in axes:
            if d == c:
                a = at(f, zero)
            else:
                g = v[d]
                corner = [x + y for x, y in zip(ijk_unit(c, -1), ijk_unit(d))]
                a = 0.25 * (at(g, ijk_unit(c, -1)) + at(g, zero) + at(g, corner) + at(g, ijk_unit(d)))
            fa = at(f, ijk_unit(d)) - at(f, zero)
            fb = at(f, zero) - at(f, ijk_unit(d, -1))
            rate -= a * (fa + fb + np.copysign(cfg.alpha, a) * (fb - fa)) / (2 * h[d])
            rate += cfg.nu * (fa - fb) / h[d] ** 2
        at(new[c], zero)[...] = at(f, zero) + cfg.dt * rate
    reference_boundary(cfg, new)

    div = np.zeros_like(p)
    at(div, zero)[...] = reference_divergence(cfg, new)
    # Neumann walls through a mask: a neighbour across a wall is the cell itself.
    cells = np.zeros(p.shape, dtype=bool)
    at(cells, zero)[...] = True
    diagonal = sum(2 / h[d] ** 2 for d in axes)
    for _ in range(cfg.sweeps):
        inner = at(p, zero)
        total = np.zeros_like(inner)
        for d in axes:
            for k in (1, -1):
                total += np.where(at(cells, ijk_unit(d, k)), at(p, ijk_unit(d, k)), inner) / h[d] ** 2
        jacobi = (total - at(div, zero) / cfg.dt) / diagonal
        p = p.copy()
        at(p, zero)[...] = (1 - cfg.jacobi_weight) * inner + cfg.jacobi_weight * jacobi
    for d in axes:
        # faces 1..N+1 along d (p(0) and p(N+1) are read at the walls, which the boundary resets)
        f = np.moveaxis(new[d], IJK[d], 0)
        q = np.moveaxis(p, IJK[d], 0)
        f[1:] -= cfg.dt * (q[1:] - q[:-1]) / h[d]
    reference_boundary(cfg, new)
    v.update(new)
    return p


def loop_step(cfg, v, p):
    """The same step point by point, transcribed from the spec without vectorising: the check of
    reference_step on small grids. Arrays [i][j][k]; v is replaced by the new level."""
    nx, ny, nz = cfg.n[X], cfg.n[Y], cfg.n[Z]
    hx, hy, hz = cfg.h[X], cfg.h[Y], cfg.h[Z]
    three = cfg.dims == 3
    vx, vy, vz = v[X], v[Y], v[Z]
    nvx, nvy, nvz = np.zeros_like(vx), np.zeros_like(vy), np.zeros_like(vz)

    def derivative(f_minus, f_zero, f_plus, a, step):
        fa = f_plus - f_zero
        fb = f_zero - f_minus
        return (fa + fb + math.copysign(cfg.alpha, a) * (fb - fa)) / (2 * step)

    def second(f_minus, f_zero, f_plus, step):
        return (f_plus - 2 * f_zero + f_minus) / step ** 2

    def advanced(f, i, j, k, ax, ay, az):
        """f* at (i, j, k) advected by (ax, ay, az) (az unused in 2D)."""
        conv = ax * derivative(f[i - 1, j, k], f[i, j, k], f[i + 1, j, k], ax, hx) \
            + ay * derivative(f[i, j - 1, k], f[i, j, k], f[i, j + 1, k], ay, hy)
        visc = second(f[i - 1, j, k], f[i, j, k], f[i + 1, j, k], hx) \
            + second(f[i, j - 1, k], f[i, j, k], f[i, j + 1, k], hy)
        if three:
            conv += az * derivative(f[i, j, k - 1], f[i, j, k], f[i, j, k + 1], az, hz)
            visc += second(f[i, j, k - 1], f[i, j, k], f[i, j, k + 1], hz)
        return f[i, j, k] + cfg.dt * (cfg.nu * visc - conv)

    for i in range(1, nx + 1):
        for j in range(1, ny + 1):
            for k in range(1, nz + 1):
                ay = 0.25 * (vy[i - 1, j, k] + vy[i, j, k] + vy[i - 1, j + 1, k] + vy[i, j + 1, k])
                az = 0.25 * (vz[i - 1, j, k] + vz[i, j, k] + vz[i - 1, j, k + 1] + vz[i, j, k + 1])
                nvx[i, j, k] = advanced(vx, i, j, k, vx[i, j, k], ay, az)
                ax = 0.25 * (vx[i, j - 1, k] + vx[i + 1, j - 1, k] + vx[i, j, k] + vx[i + 1, j, k])
                az = 0.25 * (vz[i, j - 1, k] + vz[i, j, k] + vz[i, j - 1, k + 1] + vz[i, j, k + 1])
                nvy[i, j, k] = advanced(vy, i, j, k, ax, vy[i, j, k], az)
                if three:
                    ax = 0.25 * (vx[i, j, k - 1] + vx[i + 1, j, k - 1] + vx[i, j, k] + vx[i + 1, j, k])
                    ay = 0.25 * (vy[i, j, k - 1] + vy[i, j + 1, k - 1] + vy[i, j, k] + vy[i, j + 1, k])
                    nvz[i, j, k] = advanced(vz, i, j, k, ax, ay, vz[i, j, k])
    loop_boundary(cfg, nvx, nvy, nvz)

    div = np.zeros_like(p)
    for i in range(1, nx + 1):
        for j in range(1, ny + 1):
            for k in range(1, nz + 1):
                div[i, j, k] = (nvx[i + 1, j, k] - nvx[i, j, k]) / hx + (nvy[i, j + 1, k] - nvy[i, j, k]) / hy
                if three:
                    div[i, j, k] += (nvz[i, j, k + 1] - nvz[i, j, k]) / hz
    w = cfg.jacobi_weight
    for _ in range(cfg.sweeps):
        q = p.copy()
        for i in range(1, nx + 1):
            for j in range(1, ny + 1):
                for k in range(1, nz + 1):
                    def nb(a, b, c):  # the neighbour, or the cell itself across a wall
                        inside = 1 <= a <= nx and 1 <= b <= ny and 1 <= c <= nz
                        return p[a, b, c] if inside else p[i, j, k]
                    total = (nb(i + 1, j, k) + nb(i - 1, j, k)) / hx ** 2 \
                        + (nb(i, j + 1, k) + nb(i, j - 1, k)) / hy ** 2
                    diagonal = 2 / hx ** 2 + 2 / hy ** 2
                    if three:
                        total += (nb(i, j, k + 1) + nb(i, j, k - 1)) / hz ** 2
                        diagonal += 2 / hz ** 2
                    q[i, j, k] = (1 - w) * p[i, j, k] + w * (total - div[i, j, k] / cfg.dt) / diagonal
        p = q
    # Correction at every face where the stencil fits, ghost rows included (the boundary resets
    # what lies outside the faces inside the walls).
    for i in range(0, nx + 2):
        for j in range(0, ny + 2):
            for k in range(0, nz + 2):
                if i >= 1:
                    nvx[i, j, k] -= cfg.dt * (p[i, j, k] - p[i - 1, j, k]) / hx
                if j >= 1:
                    nvy[i, j, k] -= cfg.dt * (p[i, j, k] - p[i, j - 1, k]) / hy
                if three and k >= 1:
                    nvz[i, j, k] -= cfg.dt * (p[i, j, k] - p[i, j, k - 1]) / hz
    loop_boundary(cfg, nvx, nvy, nvz)
    v[X], v[Y], v[Z] = nvx, nvy, nvz
    return p


def loop_boundary(cfg, vx, vy, vz):
    nx, ny, nz = cfg.n[X], cfg.n[Y], cfg.n[Z]
    components = [vx, vy, vz][:cfg.dims]
    faces = (("x", 0), ("x", nx + 1), ("y", 0), ("y", ny + 1), ("z", 0), ("z", nz + 1))
    for axis, wall_index in faces:
        lower = wall_index == 0
        for i in range(nx + 2):
            for j in range(ny + 2):
                for k in range(nz + 2):
                    position = {"x": i, "y": j, "z": k}[axis]
                    for number, f in enumerate(components):
                        normal = "xyz"[number] == axis
                        if normal:
                            if (lower and position in (0, 1)) or (not lower and position == wall_index):
                                f[i, j, k] = 0.0
                        elif position == wall_index:
                            inside = {"x": (i + 1, j, k) if lower else (i - 1, j, k),
                                      "y": (i, j + 1, k) if lower else (i, j - 1, k),
                                      "z": (i, j, k + 1) if lower else (i, j, k - 1)}[axis]
                            wall = cfg.lid_velocity if (number == 0 and axis == "y" and not lower) else 0.0
                            f[i, j, k] = 2 * wall - f[inside]


def run_reference(cfg, steps, step=reference_step):
    """The fields after `steps` steps from rest, fp64, [i][j][k]."""
    shape = (cfg.n[X] + 2, cfg.n[Y] + 2, cfg.n[Z] + 2)
    v = {c: np.zeros(shape) for c in (X, Y, Z)}
    p = np.zeros(shape)
    reference_boundary(cfg, v)
    for _ in range(steps):
        p = step(cfg, v, p)
    return v, p


def reference_fields(cfg, steps, step=reference_step):
    """run_reference's fields in the torch layout [z][y][x]."""
    v, p = run_reference(cfg, steps, step)
    return {"vx": v[X].T, "vy": v[Y].T, "vz": v[Z].T, "p": p.T}


# ----------------------------------------------------------------------------------- comparing

def interior(f):
    return f[1:-1, 1:-1, 1:-1]


def relative_difference(a, b):
    """max |a - b| over the interior points, relative to max |b| (absolute where b is all 0)."""
    a, b = np.asarray(interior(a), dtype=np.float64), np.asarray(interior(b), dtype=np.float64)
    scale = np.max(np.abs(b))
    worst = np.max(np.abs(a - b))
    return worst / scale if scale > 0 else worst


def compare(what, fields, reference, tolerance):
    """Prints each field's difference; returns whether all are within `tolerance` (None: printed,
    not judged)."""
    ok = True
    for name in ("vx", "vy", "vz", "p"):
        difference = relative_difference(fields[name], reference[name])
        verdict = "" if tolerance is None else (" ok" if difference <= tolerance else " FAILED")
        limit = "" if tolerance is None else f" (limit {tolerance:g})"
        print(f"{what}: {name}: max relative difference {difference:.3g}{limit}{verdict}")
        ok = ok and (tolerance is None or difference <= tolerance)
    return ok


# --------------------------------------------------------------------------- torch runs, timing

def torch_dtype(precision):
    return {"fp32": torch.float32, "fp64": torch.float64}[precision]


def compiled(fn, compile_mode):
    return torch.compile(fn, fullgraph=True, mode=None if compile_mode == "default" else compile_mode)


class compiled_stages:
    """The stages, each torch.compile'd on its own."""

    def __init__(self, st, compile_mode):
        for name in ("momentum", "velocity_boundary", "divergence", "jacobi_sweep", "correction"):
            setattr(self, name, compiled(getattr(st, name), compile_mode))


class variant:
    """One way to run the step on one device and precision: `step` as make_step gives it, and the
    stages to time one by one (None where only the whole step is compiled)."""

    def __init__(self, name, cfg, st, step, timed_stages, device, dtype):
        self.name, self.cfg, self.st, self.step, self.timed_stages = name, cfg, st, step, timed_stages
        self.device, self.dtype = device, dtype

    def new_state(self):
        return state(self.cfg, lambda shape: torch.zeros(shape, dtype=self.dtype, device=self.device), self.st)

    def fields_after(self, steps):
        """vx, vy, vz, p after `steps` steps from rest, as numpy fp64 arrays."""
        s = self.new_state()
        for _ in range(steps):
            s.advance(self.step)
        return {name: f.detach().cpu().to(torch.float64).numpy() for name, f in s.fields().items()}


def torch_variants(cfg, args, precision):
    """The variants --mode and --compile-scope ask for, on --device."""
    dtype = torch_dtype(precision)
    st = stages(cfg, torch, torch.tensor(cfg.alpha, dtype=dtype, device=args.device))
    chosen = []
    if args.mode in ("eager", "both"):
        chosen.append(("eager", make_step(st, cfg.sweeps), st))
    if args.mode in ("compile", "both"):
        if args.compile_scope in ("stages", "both"):
            each = compiled_stages(st, args.compile_mode)
            chosen.append(("compiled stages", make_step(each, cfg.sweeps), each))
        if args.compile_scope in ("step", "both"):
            chosen.append(("compiled step", compiled(make_step(st, cfg.sweeps), args.compile_mode), None))
    return [variant(name, cfg, st, step, timed, args.device, dtype) for name, step, timed in chosen]


def synchronize(device):
    if device == "cuda":
        torch.cuda.synchronize()


def time_per_call(fn, calls, rounds, device):
    """Seconds per call of fn, the best and the median over `rounds` rounds of `calls` calls each
    (CUDA events on the GPU, perf_counter on the CPU)."""
    per_call = []
    for _ in range(rounds):
        synchronize(device)
        if device == "cuda":
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(calls):
                fn()
            end.record()
            end.synchronize()
            seconds = start.elapsed_time(end) / 1e3
        else:
            begin = time.perf_counter()
            for _ in range(calls):
                fn()
            seconds = time.perf_counter() - begin
        per_call.append(seconds / calls)
    return min(per_call), statistics.median(per_call)


def copy_bandwidth(device, mib, rounds):
    """Bytes read plus written per second by a device-to-device copy of `mib` MiB, and its time."""
    source = torch.ones(mib * 2**20 // 4, dtype=torch.float32, device=device)
    target = torch.empty_like(source)
    target.copy_(source)
    best, _ = time_per_call(lambda: target.copy_(source), 5, rounds, device)
    return 2 * source.numel() * 4 / best, best


def byte_floors(cfg, element_bytes):
    """Each stage's bytes if every array it touches were read or written once per point: interior
    points for the bulk stages, the planes it touches for the boundary."""
    points = cfg.interior_points() * element_bytes
    components = len(cfg.axes)
    padded = math.prod(cfg.torch_shape())
    boundary = 0
    for d in (X, Y, Z):
        plane_points = padded // cfg.torch_shape()[TORCH_DIM[d]]
        for c in cfg.axes:
            boundary += plane_points * (3 if c == d else 4)  # 3 written; or 2 read, 2 written
    floors = {
        "momentum": 2 * components * points,
        "velocity_boundary": boundary * element_bytes,
        "divergence": (components + 1) * points,
        "jacobi_sweep": 3 * points,
        "correction": (2 * components + 1) * points,
    }
    floors["step"] = (floors["momentum"] + 2 * floors["velocity_boundary"] + floors["divergence"]
                      + cfg.sweeps * floors["jacobi_sweep"] + floors["correction"])
    return floors


def stage_calls(st, s):
    """Each stage as a call without arguments on the state s (the Jacobi sweep alternates its
    two buffers, as in the step)."""
    buffers = [s.p, s.p_spare]

    def jacobi():
        st.jacobi_sweep(buffers[0], s.div, buffers[1])
        buffers.reverse()

    return {
        "momentum": lambda: st.momentum(s.velocity, s.previous),
        "velocity_boundary": lambda: st.velocity_boundary(s.velocity),
        "divergence": lambda: st.divergence(s.velocity, s.div),
        "jacobi_sweep": jacobi,
        "correction": lambda: st.correction(s.velocity, s.p),
    }


def benchmark_variant(v, args, rows, copy_bps):
    """Times the variant's step, then each of its stages; adds the rows; returns the best step time."""
    s = v.new_state()
    begin = time.perf_counter()
    s.advance(v.step)  # the first call compiles
    synchronize(args.device)
    print(f"{v.name}: first step {time.perf_counter() - begin:.3f} s (compilation included)")
    for _ in range(args.warmup):
        s.advance(v.step)
    floors = byte_floors(v.cfg, torch.finfo(v.dtype).bits // 8)

    def report(stage, best, median):
        bandwidth = floors[stage] / best
        rows.append((v.name, stage, floors[stage], best, median, bandwidth, bandwidth / copy_bps))
        print(f"{v.name}: {stage}: best {best * 1e6:.1f} us, median {median * 1e6:.1f} us; floor "
              f"{floors[stage] / 1e6:.4g} MB: {bandwidth / 1e9:.1f} GB/s, "
              f"{100 * bandwidth / copy_bps:.1f}% of copy")

    best, median = time_per_call(lambda: s.advance(v.step), args.steps, args.rounds, args.device)
    report("step", best, median)
    finite = all(bool(torch.isfinite(f).all()) for f in s.fields().values())
    print(f"{v.name}: after {1 + args.warmup + args.steps * args.rounds} steps max |vx| = "
          f"{float(s.velocity[X].abs().max()):.6g}, fields finite: {'yes' if finite else 'NO'}")
    if v.timed_stages is not None:
        for stage, call in stage_calls(v.timed_stages, s).items():
            for _ in range(2):  # compiles a stage compiled on its own
                call()
            report(stage, *time_per_call(call, args.stage_calls, args.rounds, args.device))
    return best


def config_from_args(args, default_n):
    n = args.n or default_n
    dt, nu = stable_parameters(n, args.dims, args.reynolds, args.lid_velocity, args.cfl)
    return config((n, n, n if args.dims == 3 else 1), args.dims, args.dt or dt, args.nu or nu, args.alpha,
                  args.lid_velocity, args.sweeps, args.jacobi_weight)


def benchmark(args):
    cfg = config_from_args(args, 256)
    n = cfg.n[X]
    device_name = torch.cuda.get_device_name() if args.device == "cuda" else "cpu"
    print(f"ldc_torch: {device_name} ({args.device}), torch {torch.__version__}, {args.precision}, "
          f"{args.dims}D, n = {n}, sweeps = {args.sweeps}, dt = {cfg.dt:.6g}, nu = {cfg.nu:.6g}, "
          f"alpha = {cfg.alpha:g}, compile mode {args.compile_mode}")
    copy_mib = args.copy_mib or (1024 if args.device == "cuda" else 256)
    copy_bps, copy_seconds = copy_bandwidth(args.device, copy_mib, args.rounds)
    print(f"copy: {copy_mib} MiB in {copy_seconds * 1e3:.3f} ms: {copy_bps / 1e9:.1f} GB/s (read + written)")

    rows, step_seconds = [], {}
    chosen = torch_variants(cfg, args, args.precision)
    for v in chosen:
        step_seconds[v.name] = benchmark_variant(v, args, rows, copy_bps)
    copy_after, _ = copy_bandwidth(args.device, copy_mib, args.rounds)
    print(f"copy at the end: {copy_after / 1e9:.1f} GB/s (the percentages use the first)")

    # Every variant computes the same fields (in fp32 within rounding).
    if len(chosen) > 1:
        first = chosen[0].fields_after(3)
        for v in chosen[1:]:
            compare(f"{v.name} against {chosen[0].name}, 3 steps", v.fields_after(3), first, None)
    compiled_names = [name for name in step_seconds if name != "eager"]
    if compiled_names:
        fastest = min(compiled_names, key=step_seconds.get)
        against = (f", {step_seconds['eager'] / step_seconds[fastest]:.2f}x faster than eager"
                   if "eager" in step_seconds else "")
        print(f"faster compiled variant: {fastest} ({step_seconds[fastest] * 1e3:.3f} ms a step){against}")

    print()
    print(f"{device_name}, torch {torch.__version__}, {args.precision}, {args.dims}D n = {n}, "
          f"{args.sweeps} Jacobi sweeps, copy {copy_bps / 1e9:.1f} GB/s ({copy_mib} MiB):")
    print()
    print("| variant | stage | floor (MB) | best (us) | median (us) | GB/s | % of copy |")
    print("|---|---|---|---|---|---|---|")
    for name, stage, floor, best, median, bandwidth, fraction in rows:
        print(f"| {name} | {stage} | {floor / 1e6:.4g} | {best * 1e6:.1f} | {median * 1e6:.1f} | "
              f"{bandwidth / 1e9:.1f} | {100 * fraction:.1f}% |")
    return 0


# -------------------------------------------------------------------------- --check, --self-test

def write_npz(path, fields, cfg, steps, what):
    """The interiors (points 1..N on each axis) as vx, vy, vz, p and the padded arrays as
    <name>_padded, [z][y][x]; written under a temporary name, then renamed."""
    arrays = {}
    for name, f in fields.items():
        arrays[name] = np.ascontiguousarray(interior(f))
        arrays[name + "_padded"] = np.ascontiguousarray(f)
    arrays.update(n=np.array([cfg.n[X], cfg.n[Y], cfg.n[Z]]), dims=cfg.dims, steps=steps, sweeps=cfg.sweeps,
                  dt=cfg.dt, nu=cfg.nu, alpha=cfg.alpha, lid_velocity=cfg.lid_velocity,
                  jacobi_weight=cfg.jacobi_weight, what=what,
                  layout="[z][y][x]; vx etc.: array indices 1..N on every axis; <name>_padded: 0..N+1")
    folder = os.path.dirname(path) or "."
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".ldc_torch.", suffix=".npz")
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp's 0600 is for its name only
        with os.fdopen(handle, "wb") as out:
            np.savez(out, **arrays)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
    print(f"wrote {path}")


def thorn_fields(folder, iteration):
    """The thorn's vx, vy, vz, p at `iteration` from IOHDF5's <var>.h5 files, [z][y][x]."""
    import h5py
    fields = {}
    for name in ("vx", "vy", "vz", "p"):
        path = os.path.join(folder, name + ".h5")
        wanted = f"liddrivencavity::{name} it={iteration} tl=0"
        if not os.path.exists(path):
            raise SystemExit(f"ldc_torch.py: error: {path}: no such file")
        with h5py.File(path, "r") as f:
            found = [key for key in f.keys() if key.lower() == wanted]
            if not found:
                raise SystemExit(f"ldc_torch.py: error: {path}: no dataset "
                                 f"'LIDDRIVENCAVITY::{name} it={iteration} tl=0' (it has: {', '.join(sorted(f.keys()))})")
            fields[name] = f[found[0]][...]
    return fields


def check(args):
    cfg = config_from_args(args, 16)
    print(f"check: {args.dims}D, n = {cfg.n[X]}, {args.steps} steps, {cfg.sweeps} sweeps, dt = {cfg.dt!r}, "
          f"nu = {cfg.nu!r}, alpha = {cfg.alpha!r}, lid velocity = {cfg.lid_velocity!r}, "
          f"jacobi weight = {cfg.jacobi_weight!r}")
    os.makedirs(args.check, exist_ok=True)
    reference = reference_fields(cfg, args.steps)
    write_npz(os.path.join(args.check, "ldc_reference.npz"), reference, cfg, args.steps, "numpy reference, fp64")
    ok = True
    if torch is None:
        print("torch is not installed: only the numpy reference ran")
    else:
        tolerance = FP64_TOLERANCE if args.precision == "fp64" else None  # fp32: printed, not judged
        for v in torch_variants(cfg, args, args.precision):
            fields = v.fields_after(args.steps)
            tag = v.name.replace(" ", "_")
            write_npz(os.path.join(args.check, f"ldc_torch_{tag}_{args.device}_{args.precision}.npz"), fields, cfg,
                      args.steps, f"torch {v.name}, {args.device}, {args.precision}")
            ok = compare(f"torch {v.name} against the reference", fields, reference, tolerance) and ok
    if args.thorn_output:
        fields = thorn_fields(args.thorn_output, args.steps)
        for name, f in fields.items():
            if f.shape != reference[name].shape:
                raise SystemExit(f"ldc_torch.py: error: {args.thorn_output}: {name} has the shape {f.shape}, "
                                 f"the grid {reference[name].shape}")
        judged = FP64_TOLERANCE if all(f.dtype == np.float64 for f in fields.values()) else None
        ok = compare("thorn against the reference", fields, reference, judged) and ok
    return 0 if ok else 1


def self_test(args):
    """Returns the exit status; prints one line a check and the counts."""
    passed, failed, skipped = [], [], []

    def judge(name, difference, limit, worst=""):
        good = difference <= limit
        print(f"self-test: {name}: {difference:.3g}{worst} (limit {limit:g}) {'ok' if good else 'FAILED'}")
        (passed if good else failed).append(name)

    def agree(name, fields, reference):
        """Judges the largest of the fields' differences from the reference (relative_difference)."""
        differences = {key: relative_difference(fields[key], reference[key]) for key in reference}
        worst = max(differences, key=differences.get)
        judge(name, differences[worst], FP64_TOLERANCE, f" in {worst}")

    def on_numpy(cfg, steps):
        """The torch stages run on numpy arrays: their slicing and order checked where torch is missing."""
        st = stages(cfg, np, np.asarray(cfg.alpha))
        s = state(cfg, np.zeros, st)
        step = make_step(st, cfg.sweeps)
        for _ in range(steps):
            s.advance(step)
        return s.fields()

    # 1. The vectorised reference and the torch stages (on numpy arrays) against the point-by-point
    #    transcription, on grids of a different size along each axis; central, upwind and blended
    #    convection, a Jacobi weight other than 1.
    for n, dims in (((5, 4, 6), 3), ((6, 5, 1), 2)):
        for alpha in (0.0, 1.0, 0.5):
            cfg = config(n, dims, 2e-3, 0.05, alpha, sweeps=5, jacobi_weight=0.8)
            loops = reference_fields(cfg, 3, step=loop_step)
            agree(f"numpy reference against plain loops, {n}, alpha {alpha:g}", reference_fields(cfg, 3), loops)
            agree(f"torch stages on numpy arrays against plain loops, {n}, alpha {alpha:g}", on_numpy(cfg, 3),
                  loops)

    # 2. With the pressure solved to convergence a step leaves no divergence: the correction and
    #    the Neumann walls make the projection. Measured against the divergence left without it.
    for n, dims in (((8, 8, 1), 2), ((6, 6, 6), 3)):
        divergence = {}
        for sweeps in (0, 1000):
            v, _ = run_reference(config(n, dims, 1e-2, 0.01, 1.0, sweeps=sweeps), 1)
            divergence[sweeps] = np.max(np.abs(reference_divergence(config(n, dims, 1e-2, 0.01, 1.0), v)))
        judge(f"divergence after a converged projection against none, {n}", divergence[1000] / divergence[0],
              1e-10)

    # 3. The torch stages against the reference in fp64, 16^3 and 32x32x1: on numpy arrays always;
    #    with torch where it is installed (--device; eager and/or compiled, as --mode says).
    for n, dims in (((16, 16, 16), 3), ((32, 32, 1), 2)):
        dt, nu = stable_parameters(n[0], dims, 100.0, 1.0, 0.5)
        cfg = config(n, dims, dt, nu, 1.0, sweeps=20)
        steps = 3
        reference = reference_fields(cfg, steps)
        agree(f"torch stages on numpy arrays against the reference, {n}", on_numpy(cfg, steps), reference)
        if torch is None:
            skipped.append(n)
            print(f"self-test: torch against the reference, {n}: skipped (torch is not installed)")
            continue
        for v in torch_variants(cfg, args, "fp64"):
            agree(f"torch {v.name} ({args.device}) against the reference, {n}", v.fields_after(steps), reference)

    print(f"self-test: {len(passed)} passed, {len(failed)} failed, {len(skipped)} skipped"
          + (" (torch is not installed)" if skipped else ""))
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, help="interior cells per axis (256 for the benchmark, 16 for --check)")
    parser.add_argument("--dims", type=int, choices=(2, 3), default=3)
    parser.add_argument("--precision", choices=("fp32", "fp64"), default="fp32")
    parser.add_argument("--steps", type=int, default=10,
                        help="steps in each timed round; with --check the steps run from rest")
    parser.add_argument("--sweeps", type=int, default=20, help="Jacobi sweeps a step")
    parser.add_argument("--mode", choices=("eager", "compile", "both"))
    parser.add_argument("--compile-scope", choices=("step", "stages", "both"), default="both",
                        help="torch.compile the whole step, each stage, or time both")
    parser.add_argument("--compile-mode", default="default",
                        choices=("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"))
    parser.add_argument("--device", choices=("cuda", "cpu"),
                        help="the benchmark's default cuda; --check's cuda where it answers; --self-test's cpu")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds; the best and the median are printed")
    parser.add_argument("--stage-calls", type=int, default=10, help="calls of a stage in each timed round")
    parser.add_argument("--warmup", type=int, default=3, help="steps before the timed ones")
    parser.add_argument("--copy-mib", type=int,
                        help="size of the copy that measures bandwidth (1024 on cuda, 256 on cpu)")
    parser.add_argument("--reynolds", type=float, default=100.0)
    parser.add_argument("--lid-velocity", type=float, default=1.0)
    parser.add_argument("--cfl", type=float, default=0.5,
                        help="dt = cfl min(h / U, h^2 / (2 dims nu)) unless --dt")
    parser.add_argument("--dt", type=float)
    parser.add_argument("--nu", type=float, help="viscosity (default lid_velocity / reynolds)")
    parser.add_argument("--alpha", type=float, default=1.0, help="upwinding: 0 central, 1 upwind")
    parser.add_argument("--jacobi-weight", type=float, default=1.0)
    parser.add_argument("--check", metavar="DIR", help="write the fields after --steps steps from rest to DIR")
    parser.add_argument("--thorn-output", metavar="DIR", help="with --check: the thorn's IOHDF5 files to compare")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()

    if args.thorn_output and not args.check:
        parser.error("--thorn-output needs --check")
    if torch is None and not (args.self_test or args.check):
        parser.error("torch is not installed (the benchmark needs it; --self-test and --check run without)")
    cuda = torch is not None and torch.cuda.is_available()
    if args.self_test:
        args.device, args.mode = args.device or "cpu", args.mode or "eager"
    elif args.check:
        args.device, args.mode = args.device or ("cuda" if cuda else "cpu"), args.mode or "eager"
    else:
        args.device, args.mode = args.device or "cuda", args.mode or "both"
    if torch is not None and args.device == "cuda" and not cuda:
        parser.error("no CUDA device answers; use --device cpu")
    if args.self_test:
        return self_test(args)
    return check(args) if args.check else benchmark(args)


if __name__ == "__main__":
    sys.exit(main())
