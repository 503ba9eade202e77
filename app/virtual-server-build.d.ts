/** React Router's own server build (routes, entry), as a module the app may import lazily. */
declare module "virtual:react-router/server-build" {
  export const routes: import("react-router").ServerBuild["routes"];
}
