// The XDMF text of an HDF5 output series (thorns/IOHDF5/src/xdmf.cpp). tests/e2e/output_test.sh
// opens such files in ParaView; here the text itself: axes z, y, x, the type of the data, and
// names escaped for XML.
#include "thorns/IOHDF5/src/xdmf.hpp"

#include <gtest/gtest.h>

namespace {

using namespace opuntia::thorns::IOHDF5;

TEST(xdmf_text, lists_each_step_on_the_variables_own_points_slowest_axis_first) {
  xdmf_series s;
  s.variable = "rho&u";
  s.h5_file = "rho&u.h5";
  s.type = opuntia::data_type::cctk_int;
  s.points = {5, 4, 3};
  s.origin = {0.05, -1, 2.5};  // a cell centre along x
  s.delta = {0.1, 0.25, 0.5};
  s.steps = {{0, 0.0, "HYDRO::rho&u it=0 tl=0"}, {8, 0.125, "HYDRO::rho&u it=8 tl=0"}};
  const auto step = [](int it, const char* time) {
    return std::string("      <Grid Name=\"rho&amp;u it=") + std::to_string(it) + "\" GridType=\"Uniform\">\n" +
           "        <Time Value=\"" + time + "\"/>\n" +
           "        <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"3 4 5\"/>\n"
           "        <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n"
           "          <DataItem Name=\"Origin\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" "
           "Format=\"XML\">2.5 -1 0.050000000000000003</DataItem>\n"
           "          <DataItem Name=\"Spacing\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" "
           "Format=\"XML\">0.5 0.25 0.10000000000000001</DataItem>\n"
           "        </Geometry>\n"
           "        <Attribute Name=\"rho&amp;u\" AttributeType=\"Scalar\" Center=\"Node\">\n"
           "          <DataItem Dimensions=\"3 4 5\" NumberType=\"Int\" Precision=\"4\" Format=\"HDF\">"
           "rho&amp;u.h5:/xdmf/it=" + std::to_string(it) + "</DataItem>\n"
           "        </Attribute>\n"
           "      </Grid>\n";
  };
  EXPECT_EQ(xdmf_text(s), "<?xml version=\"1.0\" ?>\n"
                          "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
                          "<Xdmf Version=\"2.0\">\n"
                          "  <Domain>\n"
                          "    <Grid Name=\"rho&amp;u\" GridType=\"Collection\" CollectionType=\"Temporal\">\n" +
                              step(0, "0") + step(8, "0.125") +
                              "    </Grid>\n"
                              "  </Domain>\n"
                              "</Xdmf>\n");
}

TEST(xdmf_text, a_real_variable_has_the_precision_of_cctk_real) {
  xdmf_series s;
  s.variable = "phi";
  s.h5_file = "phi.h5";
  s.points = {2, 2, 2};
  s.steps = {{0, 0.0, "WAVETOY::phi it=0 tl=0"}};
  EXPECT_NE(xdmf_text(s).find("NumberType=\"Float\" Precision=\"" + std::to_string(sizeof(CCTK_REAL)) +
                              "\" Format=\"HDF\">phi.h5:/xdmf/it=0<"),
            std::string::npos)
      << xdmf_text(s);
}

}  // namespace
