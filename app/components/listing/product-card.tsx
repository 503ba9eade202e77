import { useNavigate } from "react-router";
import { useCartActions } from "#app/components/cart-context.tsx";
import { type CardProduct, ProductCardView } from "./product-card-view.tsx";

/** The K-2 product card where the cart's and the router's contexts reach it (the home page's carousels). */
export function ProductCard({ product, priority = false }: { product: CardProduct; priority?: boolean }) {
  const { addItem } = useCartActions();
  const navigate = useNavigate();
  return <ProductCardView product={product} priority={priority} addItem={addItem} navigate={navigate} />;
}
