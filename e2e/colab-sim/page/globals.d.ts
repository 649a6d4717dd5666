// Names the simulator's page scripts give the page's window (main.js): its test API and Colab's internal one (§7).
interface Window {
  __colabSim: unknown;
  colab: unknown;
}
