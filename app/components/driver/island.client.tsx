/**
 * The driver page's only script in the production build (record 059): hydrates the run's island
 * with the props the server wrote beside it. React alone: no router, no route manifest.
 */
import { hydrateRoot } from "react-dom/client";
import {
  DRIVER_ISLAND_ID,
  DRIVER_ISLAND_PROPS_ID,
  DriverIsland,
  type DriverIslandProps,
} from "./driver-island.tsx";

const container = document.getElementById(DRIVER_ISLAND_ID);
const props = document.getElementById(DRIVER_ISLAND_PROPS_ID)?.textContent;
if (container && props)
  hydrateRoot(container, <DriverIsland {...(JSON.parse(props) as DriverIslandProps)} />);
