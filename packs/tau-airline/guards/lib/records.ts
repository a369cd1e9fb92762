/**
 * The records of the tau-bench airline domain as lookups return them (the tool specs give no result schemas).
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

/** The airline database. */
export interface AirlineData {
  flights: Record<string, Flight>;
  reservations: Record<string, Reservation>;
  users: Record<string, User>;
}
