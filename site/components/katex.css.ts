// Framework data loader for components/katex.css: KaTeX's stylesheet with every font inlined, made
// by the package's own code (`consolesr/framework`, which the report projects use the same way).
import { katexStylesheet } from "../../src/framework/index.js";

process.stdout.write(katexStylesheet());
