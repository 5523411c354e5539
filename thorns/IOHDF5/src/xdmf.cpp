#include "xdmf.hpp"

#include <fmt/format.h>

namespace opuntia::thorns::IOHDF5 {

namespace {

std::string xml_escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string xdmf_text(const xdmf_series& s) {
  // XDMF lists the slowest axis first: z, y, x, as the HDF5 datasets are laid out.
  const auto dims = fmt::format("{} {} {}", s.points[2], s.points[1], s.points[0]);
  const auto origin = fmt::format("{:.17g} {:.17g} {:.17g}", s.origin[2], s.origin[1], s.origin[0]);
  const auto spacing = fmt::format("{:.17g} {:.17g} {:.17g}", s.delta[2], s.delta[1], s.delta[0]);
  const bool integer = s.type == opuntia::data_type::cctk_int;
  const auto number = fmt::format(R"(NumberType="{}" Precision="{}")", integer ? "Int" : "Float",
                                  integer ? sizeof(CCTK_INT) : sizeof(CCTK_REAL));
  const auto name = xml_escaped(s.variable);
  std::string out = fmt::format(
      "<?xml version=\"1.0\" ?>\n"
      "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
      "<Xdmf Version=\"2.0\">\n"
      "  <Domain>\n"
      "    <Grid Name=\"{}\" GridType=\"Collection\" CollectionType=\"Temporal\">\n",
      name);
  for (const auto& step : s.steps) {
    out += fmt::format(
        "      <Grid Name=\"{name} it={it}\" GridType=\"Uniform\">\n"
        "        <Time Value=\"{time:.17g}\"/>\n"
        "        <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"{dims}\"/>\n"
        "        <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n"
        "          <DataItem Name=\"Origin\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" "
        "Format=\"XML\">{origin}</DataItem>\n"
        "          <DataItem Name=\"Spacing\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" "
        "Format=\"XML\">{spacing}</DataItem>\n"
        "        </Geometry>\n"
        "        <Attribute Name=\"{name}\" AttributeType=\"Scalar\" Center=\"Node\">\n"
        "          <DataItem Dimensions=\"{dims}\" {number} Format=\"HDF\">{file}:/{dataset}</DataItem>\n"
        "        </Attribute>\n"
        "      </Grid>\n",
        fmt::arg("name", name), fmt::arg("it", step.iteration), fmt::arg("time", step.time),
        fmt::arg("dims", dims), fmt::arg("origin", origin), fmt::arg("spacing", spacing),
        fmt::arg("number", number), fmt::arg("file", xml_escaped(s.h5_file)),
        fmt::arg("dataset", xml_escaped(xdmf_link(step.iteration))));
  }
  out += "    </Grid>\n  </Domain>\n</Xdmf>\n";
  return out;
}

}  // namespace opuntia::thorns::IOHDF5
