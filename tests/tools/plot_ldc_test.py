#!/usr/bin/env python3
"""tools/plot_ldc.py's handling of the staggered grid: faces averaged to the cell centres, the
mid-z plane, the centrelines between faces (an odd cell count). Fields linear in x, y and z, so
every mean and interpolation is exact and a point taken one index off is not."""
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))

import numpy as np  # noqa: E402

import plot_ldc  # noqa: E402
from ghia_reference import U_LINE, V_LINE  # noqa: E402


def staggered_plane(variable, cells, f):
    """`variable` (vx or vy) of a grid of `cells` cells a side (ghosts included, the layout of
    thorns/LidDrivenCavity), f(x, y) at its points."""
    h = 1.0 / cells
    face, cell = -h, -0.5 * h  # the coordinates of index 0
    origin = (face, cell, cell) if variable == "vx" else (cell, face, cell)
    index = np.arange(cells + 2)
    x = origin[0] + index * h
    y = origin[1] + index * h
    values = f(x[None, :], y[:, None])
    return plot_ldc.plane(f"{variable}.h5", variable, values, origin, (h, h, h), 0.0)


def u_field(x, y):
    return 1 + 2 * x + 3 * y


def v_field(x, y):
    return -1 + 0.5 * x - 4 * y


class staggered_grid(unittest.TestCase):
    def test_the_faces_of_each_cell_average_to_its_centre(self):
        for cells in (4, 5):
            vx = staggered_plane("vx", cells, u_field)
            vy = staggered_plane("vy", cells, v_field)
            u, v, x, y = plot_ldc.cell_centred_velocity(vx, vy)
            centres = (np.arange(1, cells + 1) - 0.5) / cells
            np.testing.assert_allclose(x, centres, rtol=0, atol=1e-15)
            np.testing.assert_allclose(y, centres, rtol=0, atol=1e-15)
            self.assertEqual(u.shape, (cells, cells))
            np.testing.assert_allclose(u, u_field(centres[None, :], centres[:, None]), rtol=0, atol=1e-14)
            np.testing.assert_allclose(v, v_field(centres[None, :], centres[:, None]), rtol=0, atol=1e-14)

    def test_the_mid_z_plane_is_the_one_cell_of_2d_and_the_middle_of_3d(self):
        for nz, middle in ((3, 1.0), (6, 2.5), (7, 3.0)):
            values = np.broadcast_to(np.arange(nz, dtype=float)[:, None, None], (nz, 4, 5))
            plane = plot_ldc.mid_z_plane(values)
            self.assertEqual(plane.shape, (4, 5))
            np.testing.assert_array_equal(plane, np.full((4, 5), middle))

    def test_the_centrelines_between_two_faces_are_interpolated(self):
        for cells in (4, 5):  # 0.5 on a face of vx and vy, or half way between two
            h = 1.0 / cells
            along = (np.arange(cells + 2) - 0.5) * h
            u = plot_ldc.centreline(staggered_plane("vx", cells, u_field), U_LINE, 7)
            np.testing.assert_allclose(u.points, along, rtol=0, atol=1e-15)
            np.testing.assert_allclose(u.values, u_field(0.5, along), rtol=0, atol=1e-14)
            v = plot_ldc.centreline(staggered_plane("vy", cells, v_field), V_LINE, 7)
            np.testing.assert_allclose(v.points, along, rtol=0, atol=1e-15)
            np.testing.assert_allclose(v.values, v_field(along, 0.5), rtol=0, atol=1e-14)
            self.assertEqual((u.source, u.iteration), ("vx.h5", 7))

    def test_a_line_outside_the_points_is_an_error(self):
        vx = staggered_plane("vx", 4, u_field)
        vx.origin = (0.75, vx.origin[1], vx.origin[2])
        with self.assertRaises(plot_ldc.input_error) as raised:
            plot_ldc.centreline(vx, U_LINE, 0)
        self.assertEqual(str(raised.exception),
                         'vx.h5: error: the line x = 0.5 lies outside the points of "vx", x = 0.75 to 2')


if __name__ == "__main__":
    unittest.main()
