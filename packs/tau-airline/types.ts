/**
 * Domain types of the tau-bench airline domain: the database records and the arguments of its tools.
 * Field names follow the tau-bench v1 data files.
 */

/** A cabin class. */
export type Cabin = 'basic_economy' | 'economy' | 'business';
/** A membership tier. */
export type Membership = 'regular' | 'silver' | 'gold';
/** A trip type. */
export type FlightType = 'one_way' | 'round_trip';

/** The status and figures of one flight on one date. */
export type FlightDateStatus =
  | { status: 'available'; available_seats: Record<Cabin, number>; prices: Record<Cabin, number> }
  | { status: 'landed'; actual_departure_time_est: string; actual_arrival_time_est: string }
  | { status: 'flying'; actual_departure_time_est: string; estimated_arrival_time_est: string }
  | { status: 'delayed' | 'on time'; estimated_departure_time_est: string; estimated_arrival_time_est: string }
  | { status: 'cancelled' };

/** A scheduled flight with its status per date. */
export interface Flight {
  flight_number: string;
  origin: string;
  destination: string;
  scheduled_departure_time_est: string;
  scheduled_arrival_time_est: string;
  dates: Record<string, FlightDateStatus>;
}

/** One flight on one date, as the `get_flight_on_date_details` lookup returns it. */
export type FlightOnDate = Omit<Flight, 'dates'> & { date: string } & FlightDateStatus;

/** A flight segment of a reservation. */
export interface ReservationFlight {
  flight_number: string;
  date: string;
  price: number;
  origin: string;
  destination: string;
}

/** A passenger. */
export interface Passenger {
  first_name: string;
  last_name: string;
  dob: string;
}

/** One entry of a reservation's payment history; refunds have a negative amount. */
export interface Payment {
  payment_id: string;
  amount: number;
}

/** A reservation record. */
export interface Reservation {
  reservation_id: string;
  user_id: string;
  origin: string;
  destination: string;
  flight_type: FlightType;
  cabin: Cabin;
  flights: ReservationFlight[];
  passengers: Passenger[];
  payment_history: Payment[];
  created_at: string;
  total_baggages: number;
  nonfree_baggages: number;
  insurance: 'yes' | 'no';
  status?: 'cancelled';
}

/** A payment method stored in a user profile. */
export type PaymentMethod =
  | { source: 'credit_card'; id: string; brand: string; last_four: string }
  | { source: 'gift_card'; id: string; amount: number }
  | { source: 'certificate'; id: string; amount: number };

/** A user record. */
export interface User {
  name: { first_name: string; last_name: string };
  address: Record<string, string>;
  email: string;
  dob: string;
  payment_methods: Record<string, PaymentMethod>;
  saved_passengers: Passenger[];
  membership: Membership;
  reservations: string[];
}

/** Arguments of `book_reservation`. */
export interface BookReservationArgs {
  user_id: string;
  origin: string;
  destination: string;
  flight_type: FlightType;
  cabin: Cabin;
  flights: { flight_number: string; date: string }[];
  passengers: Passenger[];
  payment_methods: Payment[];
  total_baggages: number;
  nonfree_baggages: number;
  insurance: 'yes' | 'no';
}

/** Arguments of `cancel_reservation`. */
export interface CancelReservationArgs {
  reservation_id: string;
}

/** Arguments of `update_reservation_baggages`. */
export interface UpdateReservationBaggagesArgs {
  reservation_id: string;
  total_baggages: number;
  nonfree_baggages: number;
  payment_id: string;
}

/** Arguments of `update_reservation_flights`. */
export interface UpdateReservationFlightsArgs {
  reservation_id: string;
  cabin: Cabin;
  flights: { flight_number: string; date: string }[];
  payment_id: string;
}

/** Arguments of `update_reservation_passengers`. */
export interface UpdateReservationPassengersArgs {
  reservation_id: string;
  passengers: Passenger[];
}

/** Arguments of `send_certificate`. */
export interface SendCertificateArgs {
  user_id: string;
  amount: number;
}

/** The airline database. */
export interface AirlineData {
  flights: Record<string, Flight>;
  reservations: Record<string, Reservation>;
  users: Record<string, User>;
}
